package mcpserve_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnsandboxedBashCannotReadServeEnviron: with the sandbox off, Bash runs as mcp-serve's
// child with the same uid, and mcp-serve holds the model key in its environment; mcp-serve is
// non-dumpable, so Bash reads neither its /proc/<pid>/environ nor its mem, walking up to it. Root's children hold
// CAP_SYS_PTRACE, which opens both whatever the flag, so as root the server runs as nobody.
func TestUnsandboxedBashCannotReadServeEnviron(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-planted-nodump-key")
	s := startUnprivileged(t, map[string]any{"sandbox": map[string]any{"mode": "off"}})
	// Every ancestor up to mcp-serve (a reaper may stand between them) is read.
	walk := `p=$PPID; for i in 1 2 3 4; do tr '\0' '\n' </proc/$p/environ; head -c 16 /proc/$p/mem; c=$(cat /proc/$p/comm)
		case $c in awf|awf-serve) echo "reached=$c"; break;; esac; p=$(cut -d' ' -f4 /proc/$p/stat); done`
	out, _ := s.call(t, "Bash", map[string]any{"command": walk})
	if !strings.Contains(out, "reached=awf") {
		t.Fatalf("the walk did not reach mcp-serve: %s", out)
	}
	if strings.Contains(out, "sk-planted") {
		t.Fatalf("unsandboxed Bash read mcp-serve's environment: %s", out)
	}
	// Bash itself runs without the key: the only way to it was mcp-serve's /proc.
	if out, _ := s.call(t, "Bash", map[string]any{"command": "env"}); strings.Contains(out, "sk-planted") {
		t.Fatalf("Bash's own environment holds the key: %s", out)
	}
}

// startUnprivileged is start, as nobody when the test runs as root (its directories and the
// binaries opened to that user).
func startUnprivileged(t *testing.T, extra map[string]any) *server {
	t.Helper()
	dir := func() string {
		d, err := os.MkdirTemp("", "awf-nodump-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		os.Chmod(d, 0o777)
		return d
	}
	root, state := dir(), dir()
	s, cfgPath := newServer(t, root, state, extra, 0o644) // readable by the unprivileged server
	s.cmd = exec.Command(serveBin, "mcp-serve", "--config", cfgPath)
	s.cmd.Stderr = os.Stderr
	s.cmd.Env = append(os.Environ(), "HOME="+state, "TMPDIR="+state)
	if os.Getuid() == 0 {
		os.Chmod(filepath.Dir(serveBin), 0o755)
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	s.connect(t, nil)
	return s
}
