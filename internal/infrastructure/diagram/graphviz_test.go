package diagram

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// fakeDot puts an executable `dot` script in a temp dir on PATH (HOME and TMPDIR are temp too).
func fakeDot(t *testing.T, script string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "dot"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
}

func code(err error) string {
	var f *fault.Error
	if errors.As(err, &f) {
		return f.Code
	}
	return ""
}

func TestGraphvizRunsDotOnPath(t *testing.T) {
	fakeDot(t, `printf '%s|' "$@"; cat`)
	out, err := Graphviz{}.Render(context.Background(), "digraph {}", "svg")
	if err != nil || string(out) != "-Tsvg|digraph {}" {
		t.Fatalf("got %q, %v", out, err)
	}
}

func TestGraphvizFailures(t *testing.T) {
	cases := []struct {
		name, script, format string
		timeout              time.Duration
		code, msg            string
	}{
		{"bad format", "cat", "gif", 0, fault.UserCLIInvalidFormat, `"gif"`},
		{"dot fails", "echo 'syntax error' >&2; exit 1", "png", 0, fault.SystemDiagramRender, "syntax error"},
		{"dot hangs", "exec sleep 30", "svg", 100 * time.Millisecond, fault.SystemDiagramRender, "did not finish within 100ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeDot(t, c.script)
			_, err := Graphviz{Timeout: c.timeout}.Render(context.Background(), "digraph {}", c.format)
			if code(err) != c.code || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v (%s)", err, code(err))
			}
		})
	}
}

func TestGraphvizMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Graphviz{}.Render(context.Background(), "digraph {}", "svg")
	var f *fault.Error
	if !errors.As(err, &f) || f.Code != fault.SystemDiagramNoGraphviz || !strings.Contains(f.Hint, "graphviz") || !strings.Contains(f.Hint, ".mmd") {
		t.Fatalf("got %#v", err)
	}
	_, err = Graphviz{LookPath: func(string) (string, error) { return "", errors.New("no") }}.Render(context.Background(), "", "png")
	if code(err) != fault.SystemDiagramNoGraphviz || !strings.Contains(err.Error(), "PNG") {
		t.Errorf("custom LookPath: %v", err)
	}
}
