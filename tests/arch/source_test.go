package arch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goFile is one parsed non-test Go file.
type goFile struct {
	path string
	fset *token.FileSet
	ast  *ast.File
}

// sources parses every non-test Go file under dir (relative paths name them).
func sources(t *testing.T, dir string) []goFile {
	t.Helper()
	var out []goFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, goFile{path: rel, fset: fset, ast: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// importName is the name file f refers to package path by, "" when it does not import it.
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}
