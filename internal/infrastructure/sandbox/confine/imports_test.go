package confine

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// allowedImports are the only packages the helper may import: each is initialised before the
// CLI's heavy packages, so the helper's init runs before them (see the package comment). An
// import outside this list (fmt, encoding/json, path/filepath, x/sys/unix, os/exec...) puts the
// CLI's package initialisation back on every Bash call.
// io is among them because os itself imports it.
var allowedImports = map[string]bool{"errors": true, "io": true, "os": true, "os/signal": true, "runtime": true, "syscall": true, "unsafe": true}

func TestImports(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedImports[path] {
				t.Errorf("%s imports %s: the helper's init would wait for the CLI's packages", e.Name(), path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source file checked")
	}
}
