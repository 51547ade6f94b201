package arch_test

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCmdFuncLines keeps cmd/awf a composition root: a function longer than this is doing a use
// case's work (docs/design.md#layers: cmd parses flags, wires, prints and maps exit codes).
const maxCmdFuncLines = 60

// longFuncs lists the functions (with their closures) of the non-test files under dir that run
// over max lines, as "file:line name (n lines)".
func longFuncs(t *testing.T, dir string, max int) []string {
	t.Helper()
	var out []string
	for _, f := range sources(t, dir) {
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start, end := f.fset.Position(fn.Pos()).Line, f.fset.Position(fn.End()).Line
			if n := end - start + 1; n > max {
				out = append(out, fmt.Sprintf("%s:%d %s (%d lines)", f.path, start, fn.Name.Name, n))
			}
		}
	}
	return out
}

func TestCmdFunctionsAreShort(t *testing.T) {
	if long := longFuncs(t, filepath.Join(repoRoot(), "cmd"), maxCmdFuncLines); len(long) > 0 {
		t.Errorf("functions under cmd/ (awf, awf-serve, servecmd) over %d lines (move the logic into a use case):\n  %s", maxCmdFuncLines, strings.Join(long, "\n  "))
	}
}

// TestLongFunctionCheckHasTeeth plants a 61-line function beside a 60-line one and expects
// exactly the long one to be named.
func TestLongFunctionCheckHasTeeth(t *testing.T) {
	dir := t.TempDir()
	body := func(name string, lines int) string {
		return "func " + name + "() {\n" + strings.Repeat("\tprintln()\n", lines-2) + "}\n"
	}
	src := "package main\n\n" + body("fits", 60) + "\n" + body("tooLong", 61) + "\nvar f = func() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "planted.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "planted_test.go"), []byte("package main\n\n"+body("longTest", 90)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := longFuncs(t, dir, maxCmdFuncLines)
	if len(got) != 1 || got[0] != "planted.go:64 tooLong (61 lines)" {
		t.Fatalf("long functions %q, want only tooLong", got)
	}
}
