package builtins

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
)

// TestHelperInsideRootIsProtected: awf built inside the step's root (its own repository, a
// vendored copy) is the helper every Bash call re-executes before confinement applies; neither
// Bash nor Write may replace it, or the next call would run the replacement unconfined.
func TestHelperInsideRootIsProtected(t *testing.T) {
	exe, _ := os.Executable()
	sandboxtest.Require(t, exe)
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	helper := filepath.Join(root, "bin", "awf")
	if err := os.MkdirAll(filepath.Dir(helper), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(helper, b, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := New(Options{Root: root, Sandbox: &SandboxOptions{Settings: sandbox.DefaultSettings(), Self: helper, Allow: []tool.Variant{tool.VariantRead, tool.VariantWrite}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	wantErr(t, call(t, p, "Bash", map[string]any{"command": "echo '#!/bin/sh' > bin/awf"}), "sandbox")
	wantErr(t, call(t, p, "Write", map[string]any{"file_path": helper, "content": "#!/bin/sh\n"}), "protect")
	// The rest of the root stays writable: only the helper is carved out.
	if res := call(t, p, "Bash", map[string]any{"command": "echo ok > bin/other"}); res.IsError {
		t.Fatalf("write next to the helper: %s", res.JoinedText())
	}
	if now, _ := os.ReadFile(helper); !bytes.Equal(now, b) {
		t.Fatal("the helper binary was changed")
	}
}
