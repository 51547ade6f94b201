// Package arch_test proves that `make lint-arch` has teeth: it copies the module into a temp dir,
// plants a forbidden import, and expects go-arch-lint to fail naming it.
package arch_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// copyModule copies the Go sources and config of the module (not tools/, bin/, .git).
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "tools", "node_modules", ".awf", "tests":
				return filepath.SkipDir
			}
			return nil
		}
		if !(strings.HasSuffix(p, ".go") || rel == "go.mod" || rel == "go.sum" || rel == ".go-arch-lint.yml") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func archLint(t *testing.T, project string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "tool", "go-arch-lint", "check", "--project-path", project)
	cmd.Dir = filepath.Join(repoRoot(), "tools")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func TestArchLintRejectsWrongImports(t *testing.T) {
	if testing.Short() {
		testkit.Skip(t, "runs go-arch-lint on a copy of the module; skipped with -short")
	}
	tests := []struct {
		name, file, body, want string
	}{
		{
			name: "domain imports infrastructure",
			file: "internal/domain/tool/planted.go",
			body: "package tool\n\nimport _ \"github.com/awf-dev/awf/internal/infrastructure/process\"\n",
			want: "infrastructure",
		},
		{
			name: "domain imports a vendor",
			file: "internal/domain/tool/planted.go",
			body: "package tool\n\nimport _ \"go.uber.org/zap\"\n",
			want: "go.uber.org/zap",
		},
		{
			name: "application imports infrastructure",
			file: "internal/application/run/planted.go",
			body: "package run\n\nimport _ \"github.com/awf-dev/awf/internal/infrastructure/shell\"\n",
			want: "infrastructure",
		},
		{
			name: "pkg/mcpserver imports internal",
			file: "pkg/mcpserver/planted.go",
			body: "package mcpserver\n\nimport _ \"github.com/awf-dev/awf/internal/domain/tool\"\n",
			want: "domain",
		},
	}
	root := repoRoot()
	if out, err := archLint(t, root); err != nil {
		t.Fatalf("the real tree must pass first: %v\n%s", err, out)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			copyModule(t, root, dir)
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.file)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := archLint(t, dir)
			if err == nil {
				t.Fatalf("go-arch-lint accepted a forbidden import:\n%s", out)
			}
			if !strings.Contains(out, "planted.go") || !strings.Contains(out, tc.want) {
				t.Fatalf("failure does not name the planted import:\n%s", out)
			}
		})
	}
}
