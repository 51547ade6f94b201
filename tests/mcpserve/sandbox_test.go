package mcpserve_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
)

// sandboxed starts mcp-serve for an allow [read] step over a git repository, with a model key
// in mcp-serve's own environment; it skips only where this kernel cannot sandbox (Bash then
// stays hidden under allow [read]) and fails where it can and the helper does not.
func sandboxed(t *testing.T, extra map[string]any) *server {
	t.Helper()
	sandboxtest.Require(t, awfBin)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "sk-mcpserve-secret")
	cfg := map[string]any{"intent": map[string]any{"allow": []string{"read"}}}
	for k, v := range extra {
		cfg[k] = v
	}
	s := start(t, cfg)
	if !strings.Contains(strings.Join(listNames(t, s), ","), "Bash") {
		t.Fatal("the helper enforces the sandbox, yet Bash stays hidden under allow [read]")
	}
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = s.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git: %v %s", err, out)
		}
	}
	return s
}

func TestReadStepGetsSandboxedReadOnlyBash(t *testing.T) {
	s := sandboxed(t, nil)
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name == "Bash" && (tl.Annotations == nil || !tl.Annotations.ReadOnlyHint || !strings.Contains(tl.Description, "read-only")) {
			t.Fatalf("Bash under allow [read]: %+v %q", tl.Annotations, tl.Description)
		}
	}
	if out, isErr := s.call(t, "Bash", map[string]any{"command": "git log --oneline"}); isErr || !strings.Contains(out, "first commit") {
		t.Fatalf("git log: %v %q", isErr, out)
	}
	out, isErr := s.call(t, "Bash", map[string]any{"command": "touch made-by-bash"})
	if !isErr || !strings.Contains(out, "[sandbox: the kernel denied this") {
		t.Fatalf("touch under read: %v %q", isErr, out)
	}
	if _, err := os.Stat(filepath.Join(s.root, "made-by-bash")); err == nil {
		t.Fatal("a read step's Bash created a file")
	}
	// The parent mcp-serve holds the model key; its environ must stay out of reach.
	out, _ = s.call(t, "Bash", map[string]any{"command": "cat /proc/$PPID/environ; for p in /proc/[0-9]*; do cat $p/environ; done; echo end"})
	if strings.Contains(out, "sk-mcpserve-secret") || !strings.Contains(out, "end") {
		t.Fatalf("Bash read an ancestor's environment: %q", out)
	}
	recs := s.records(t)
	if len(recs) != 3 {
		t.Fatalf("records %v", recs)
	}
	for _, r := range recs {
		sb, _ := r["sandbox"].(map[string]any)
		if sb["enforced"] != true || sb["policy"] != "read" || sb["landlock_abi"].(float64) < 1 || sb["network"] != true {
			t.Fatalf("record without its sandbox: %v", r)
		}
	}
	if recs[0]["outcome"] != "success" || recs[1]["outcome"] != "error" {
		t.Fatalf("outcomes: %v", recs)
	}
}

func TestProtectedPathsOverMCP(t *testing.T) {
	s := sandboxed(t, map[string]any{"intent": map[string]any{"allow": []string{"read", "write", "destructive"}}})
	s.write(t, ".awf/workflows/w.yaml", "name: w\n", 0o644)
	if out, isErr := s.call(t, "Write", map[string]any{"file_path": ".awf/workflows/w.yaml", "content": "pwned"}); !isErr || !strings.Contains(out, "USER.BUILTINS.PROTECTED_PATH") {
		t.Fatalf("Write .awf: %v %q", isErr, out)
	}
	if out, isErr := s.call(t, "Bash", map[string]any{"command": "echo pwned > .awf/workflows/w.yaml; git config core.fsmonitor evil"}); !isErr {
		t.Fatalf("Bash wrote a protected path: %q", out)
	}
	if b, _ := os.ReadFile(filepath.Join(s.root, ".awf/workflows/w.yaml")); string(b) != "name: w\n" {
		t.Fatalf("workflow changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(s.root, ".git/config")); strings.Contains(string(b), "evil") {
		t.Fatal(".git/config changed")
	}
	// Writes in the root work under destructive.
	if out, isErr := s.call(t, "Bash", map[string]any{"command": "echo ok > out.txt && rm -rf \"$HOME\"; cat out.txt"}); isErr && !strings.Contains(out, "ok") {
		t.Fatalf("Bash in root: %q", out)
	}
	if _, err := os.Stat(os.Getenv("HOME")); err != nil {
		t.Fatal("rm -rf $HOME removed the (temp) home")
	}
}
