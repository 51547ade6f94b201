package arch_test

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are packages the inner layers never import: processes and signals are
// adapters' business (docs/design.md#growing-the-engine).
var forbiddenImports = map[string]bool{"os/exec": true, "syscall": true}

// forbiddenOS are the os functions that touch files, the environment or the process's place:
// the inner layers reach them through ports (go-arch-lint cannot see standard-library calls).
var forbiddenOS = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`Open OpenFile ReadFile WriteFile Create CreateTemp Mkdir MkdirAll
		MkdirTemp Remove RemoveAll Rename Stat Lstat ReadDir Chmod Chown Symlink Readlink Truncate
		Getenv LookupEnv Environ Setenv Unsetenv Executable Getwd Chdir`) {
		forbiddenOS[name] = true
	}
}

// ioViolations lists, for the non-test files under dir, each forbidden import and each use of a
// forbidden os function, as "file:line what".
func ioViolations(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, f := range sources(t, dir) {
		for _, imp := range f.ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); forbiddenImports[p] {
				out = append(out, fmt.Sprintf("%s:%d imports %s", f.path, f.fset.Position(imp.Pos()).Line, p))
			}
		}
		osName := importName(f.ast, "os")
		if osName == "" || osName == "_" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName && forbiddenOS[sel.Sel.Name] {
				out = append(out, fmt.Sprintf("%s:%d uses os.%s", f.path, f.fset.Position(sel.Pos()).Line, sel.Sel.Name))
			}
			return true
		})
	}
	return out
}

func TestInnerLayersDoNoIO(t *testing.T) {
	for _, layer := range []string{"internal/domain", "internal/application"} {
		if bad := ioViolations(t, filepath.Join(repoRoot(), layer)); len(bad) > 0 {
			t.Errorf("%s does I/O itself (put it behind a port, with the adapter in internal/infrastructure):\n  %s", layer, strings.Join(bad, "\n  "))
		}
	}
}

// TestIOCheckHasTeeth plants each kind of violation, under an alias too, and a test file that
// may do anything.
func TestIOCheckHasTeeth(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a/exec.go":    "package a\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
		"a/sys.go":     "package a\n\nimport sc \"syscall\"\n\nvar _ = sc.Kill\n",
		"b/files.go":   "package b\n\nimport \"os\"\n\nfunc f() {\n\t_, _ = os.ReadFile(\"x\")\n\tread := os.Open\n\t_ = read\n\t_ = os.Stdout\n}\n",
		"b/env.go":     "package b\n\nimport sys \"os\"\n\nvar home = sys.Getenv(\"HOME\")\n\nvar _ = sys.Args\n",
		"b/ok_test.go": "package b\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n)\n\nvar _, _ = os.Getwd()\nvar _ = exec.Command\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(ioViolations(t, dir), "\n")
	want := strings.Join([]string{
		"a/exec.go:3 imports os/exec",
		"a/sys.go:3 imports syscall",
		"b/env.go:5 uses os.Getenv",
		"b/files.go:6 uses os.ReadFile",
		"b/files.go:7 uses os.Open",
	}, "\n")
	if got != want {
		t.Fatalf("violations:\n%s\nwant:\n%s", got, want)
	}
}
