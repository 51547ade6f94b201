package run

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxParams bounds the parameters of every function of the package: past five, a helper does
// several jobs, or the values that travel together want a struct that names them.
const maxParams = 5

// manyParams lists the function signatures (declarations, literals, interface methods and
// function types) of the non-test files in dir that take more than max parameters, the
// receiver aside, as "file:line name (n parameters)".
func manyParams(t *testing.T, dir string, max int) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		named := map[*ast.FuncType]string{}
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.FuncDecl); ok {
				named[d.Type] = d.Name.Name
			}
			ft, ok := n.(*ast.FuncType)
			if !ok {
				return true
			}
			name, ok := named[ft]
			if !ok {
				name = "func"
			}
			if c := ft.Params.NumFields(); c > max {
				out = append(out, fmt.Sprintf("%s:%d %s (%d parameters)", filepath.Base(path), fset.Position(ft.Pos()).Line, name, c))
			}
			return true
		})
	}
	return out
}

func TestFunctionsTakeFewParameters(t *testing.T) {
	if many := manyParams(t, ".", maxParams); len(many) > 0 {
		t.Errorf("functions over %d parameters (group what travels together in a struct):\n  %s", maxParams, strings.Join(many, "\n  "))
	}
}

// TestParameterCheckHasTeeth plants signatures of every form with five and six parameters and
// expects exactly the six-parameter ones to be named; test files are not checked.
func TestParameterCheckHasTeeth(t *testing.T) {
	dir := t.TempDir()
	src := `package p

func five(a, b, c int, d string, e bool) {}

func six(a, b, c, d, e, f int) {}

func (r R) method(a, b, c, d, e, f int) {}

type R struct{ hook func(a, b, c, d, e, f int) }

type I interface{ M(int, int, int, int, int, int) }

var lit = func() { _ = func(a, b, c, d, e, f int) {} }
`
	if err := os.WriteFile(filepath.Join(dir, "planted.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "planted_test.go"), []byte("package p\n\nfunc six(a, b, c, d, e, f int) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"planted.go:5 six (6 parameters)",
		"planted.go:7 method (6 parameters)",
		"planted.go:9 func (6 parameters)",
		"planted.go:11 func (6 parameters)",
		"planted.go:13 func (6 parameters)",
	}
	if got := manyParams(t, dir, maxParams); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("named %q, want %q", got, want)
	}
}
