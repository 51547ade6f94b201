//go:build unix

package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunPromptFileFIFO is the acceptance test of docs/decisions/0017-engine-shape.md: an agent step whose prompt_file is a
// named pipe used to hang awf past its step timeout and past SIGTERM. It must fail at once, well
// within the timeout, with a user error that names the file and says what to do.
func TestRunPromptFileFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prompt.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	wf := `name: fifo
states:
  initial: ask
  ask:
    type: agent
    provider: claude
    prompt_file: ` + fifo + `
    timeout: 60s
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`
	dir := project(t, map[string]string{"fifo.yaml": wf})
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}

	start := time.Now()
	r := awf(t, dir, env, "run", "fifo")
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("awf took %s on a FIFO prompt_file; its step timeout is 60s and it should fail at once", took)
	}
	all := r.stdout + r.stderr
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (a user error)\n%s", r.code, all)
	}
	for _, want := range []string{"USER.AGENT.PROMPT_FILE", `prompt_file of step "ask"`, fifo, "named pipe (FIFO), not a regular file", "hint: point prompt_file at a regular text file", "fifo.yaml:7:5"} {
		if !strings.Contains(all, want) {
			t.Errorf("output lacks %q:\n%s", want, all)
		}
	}

	r = awf(t, dir, env, "run", "fifo", "--format", "json")
	var doc struct {
		Status   string `json:"status"`
		ExitCode int    `json:"exit_code"`
		Error    struct{ Code string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || doc.ExitCode != 1 || doc.Status != "error" || doc.Error.Code != "USER.AGENT.PROMPT_FILE" {
		t.Errorf("exit %d, summary %+v", r.code, doc)
	}
}
