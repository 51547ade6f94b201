package builtins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// TestBashHidesCredentialsAndAgents: through the Bash tool, a read step with the default
// settings reads no credential store and gets no agent variable; sandbox.readable opens the one
// store it names.
func TestBashHidesCredentialsAndAgents(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "/tmp/ssh-test/agent.1")
	t.Setenv("DOCKER_HOST", "unix:///run/docker.sock")
	settings := sandbox.DefaultSettings()
	settings.Readable = []string{"~/.npmrc"}
	p, _ := sandboxedProvider(t, []tool.Variant{tool.VariantRead}, settings)
	home := os.Getenv("HOME")
	for rel, body := range map[string]string{".ssh/id_ed25519": "SECRET-ssh", ".aws/credentials": "SECRET-aws", ".npmrc": "OPEN-npmrc"} {
		os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700)
		os.WriteFile(filepath.Join(home, rel), []byte(body+"\n"), 0o600)
	}
	args, _ := json.Marshal(map[string]any{"command": `cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.npmrc; env; echo done`})
	res, err := p.CallTool(context.Background(), "Bash", args)
	if err != nil {
		t.Fatal(err)
	}
	out := res.JoinedText()
	if !strings.Contains(out, "done") || !strings.Contains(out, "OPEN-npmrc") {
		t.Fatalf("the call did not run, or readable did not open ~/.npmrc: %s", out)
	}
	for _, leak := range []string{"SECRET-ssh", "SECRET-aws", "SSH_AUTH_SOCK", "DOCKER_HOST"} {
		if strings.Contains(out, leak) {
			t.Errorf("Bash saw %s: %s", leak, out)
		}
	}
}

// TestReadGrepGlobSkipHidden: Read refuses what the sandbox hides (awf's run records; in a root
// that holds the home directory, its credential stores), and Grep and Glob skip .awf and refuse
// a hidden path given as theirs, as Bash cannot read them.
func TestReadGrepGlobSkipHidden(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	t.Setenv("HOME", root)
	for rel, body := range map[string]string{".awf/runs/r1/state.json": `{"token":"SECRET-run"}`, ".ssh/id_ed25519": "SECRET-key", "notes.json": `{"a":"visible"}`} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o700)
		os.WriteFile(filepath.Join(root, rel), []byte(body), 0o600)
	}
	p, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	call := func(name string, args map[string]any) string {
		b, _ := json.Marshal(args)
		res, err := p.CallTool(context.Background(), name, b)
		if err != nil {
			t.Fatal(err)
		}
		return res.JoinedText()
	}
	for _, f := range []string{".awf/runs/r1/state.json", ".ssh/id_ed25519"} {
		if out := call("Read", map[string]any{"file_path": filepath.Join(root, f)}); strings.Contains(out, "SECRET") || !strings.Contains(out, "hidden") {
			t.Errorf("Read %s: %s", f, out)
		}
	}
	// A tree walk skips .awf by name, and the credential stores when the root holds them (here
	// the root is HOME): as if they were not there, for Grep, a hidden-files Grep and Glob.
	for _, args := range []map[string]any{
		{"pattern": "SECRET-key", "output_mode": "content"},
		{"pattern": "SECRET-key", "glob": "**/id_*"},
		{"pattern": "SECRET-key", "path": root, "output_mode": "files_with_matches"},
	} {
		if out := call("Grep", args); strings.Contains(out, "SECRET-key") || strings.Contains(out, "id_ed25519") {
			t.Errorf("Grep %v reached ~/.ssh: %s", args, out)
		}
	}
	for _, pattern := range []string{"**/id_*", ".ssh/*", "**/*"} {
		if out := call("Glob", map[string]any{"pattern": pattern}); strings.Contains(out, "id_ed25519") {
			t.Errorf("Glob %s lists ~/.ssh: %s", pattern, out)
		}
	}
	if out := call("Grep", map[string]any{"pattern": "SECRET-run|visible", "output_mode": "content"}); strings.Contains(out, "SECRET-run") || !strings.Contains(out, "visible") {
		t.Errorf("Grep over the root: %s", out)
	}
	if out := call("Grep", map[string]any{"pattern": "SECRET", "path": filepath.Join(root, ".awf")}); strings.Contains(out, "SECRET") {
		t.Errorf("Grep under .awf: %s", out)
	}
	if out := call("Glob", map[string]any{"pattern": "**/*.json"}); strings.Contains(out, "state.json") || !strings.Contains(out, "notes.json") {
		t.Errorf("Glob: %s", out)
	}
	if out := call("Glob", map[string]any{"pattern": ".awf/runs/**"}); strings.Contains(out, "state.json") {
		t.Errorf("Glob under .awf/runs: %s", out)
	}
}
