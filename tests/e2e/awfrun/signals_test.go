package awfrun_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
	"github.com/awf-dev/awf/tests/testkit"
)

// TestSignalMidStep stops `awf run` while the agent's Bash call (through the proxy) is running:
// SIGINT must end the run with 130, SIGKILL must still leave nothing behind. Either way no agent
// CLI, mcp-serve or Bash child survives (process table checked).
func TestSignalMidStep(t *testing.T) {
	claude := clis[0]
	for _, tc := range []struct {
		sig       syscall.Signal
		sandboxed bool
	}{{syscall.SIGINT, false}, {syscall.SIGKILL, false}, {syscall.SIGINT, true}, {syscall.SIGKILL, true}} {
		sig := tc.sig
		name := sig.String()
		if tc.sandboxed {
			name += "/sandboxed"
		}
		t.Run(name, func(t *testing.T) {
			pidFIFO := testkit.FIFO(t)
			// Unsandboxed, $$ is a host pid the process table check can follow. Sandboxed, Bash
			// lives in its own PID namespace ($$ means nothing here) and may write the FIFO only
			// because its directory is a writable path; the environment tag finds its processes.
			proxy := "      enable: true\n      sandbox: {mode: off}"
			if tc.sandboxed {
				proxy = "      enable: true\n      sandbox: {writable: [" + filepath.Dir(pidFIFO) + "]}"
			}
			p := newProject(t, claude, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "Bash", Args: map[string]any{"command": fmt.Sprintf("echo $$ > %s; sleep 1000", pidFIFO)}},
				}}
			}, proxy)
			cmd := exec.Command(awfBin, "run", "e2e")
			cmd.Dir, cmd.Env = p.dir, p.env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			must(t, cmd.Start())
			line, err := testkit.ReadFIFO(pidFIFO, 60*time.Second)
			bashPID, _ := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || bashPID == 0 {
				_ = cmd.Process.Kill()
				t.Fatalf("the agent's Bash call never started (%v):\n%s\n%s", err, out.String(), p.fake.Summary())
			}
			if len(leftovers(tagOf(p))) < 2 {
				t.Fatalf("expected the CLI and mcp-serve to be running: %v", leftovers(tagOf(p)))
			}
			must(t, cmd.Process.Signal(sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("awf did not exit after %s:\n%s", sig, out.String())
			}
			if sig == syscall.SIGINT {
				if code := cmd.ProcessState.ExitCode(); code != 130 {
					t.Errorf("exit %d after SIGINT, want 130:\n%s", code, out.String())
				}
			}
			if tc.sandboxed {
				bashPID = 0
			}
			waitNoLeftovers(t, tagOf(p), bashPID)
		})
	}
}

// TestProxyThatCannotStartFailsClearly: a step whose plugin binary is missing must fail with a
// clear error before the agent runs; the agent never runs without the tools it was promised.
func TestProxyThatCannotStartFailsClearly(t *testing.T) {
	claude := clis[0]
	p := newProject(t, claude, func(p *project) fakemodel.Script {
		return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{{Name: "Read", Args: map[string]any{"file_path": p.file}}}}
	}, "      enable: true\n      plugin_tools:\n        - plugin: notes\n          expose: [get]")
	must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "plugins.yaml"), []byte("plugins:\n  notes:\n    command: bin/plugins/no-such-binary\n"), 0o644))
	cmd := exec.Command(awfBin, "run", "e2e")
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("run succeeded with a missing plugin:\n%s", out)
	}
	if !strings.Contains(string(out), "notes") || !strings.Contains(string(out), "no-such-binary") {
		t.Errorf("error does not name the plugin and its command:\n%s", out)
	}
	for _, r := range p.fake.Requests() {
		if len(r.OfferedTools) > 0 {
			t.Fatalf("the agent ran (model saw tools %v) although its proxy could not start", r.OfferedTools)
		}
	}
	waitNoLeftovers(t, tagOf(p))
}

func tagOf(p *project) string { return filepath.Dir(p.home) }
