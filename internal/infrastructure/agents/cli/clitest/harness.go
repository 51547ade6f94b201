package clitest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Harness is one provider test's world: a fake home, the step's dir, the step's private
// TempDir as ToolProxyService would create it, and the fake CLI.
type Harness struct {
	T       testing.TB
	Home    string // HOME of the fake CLI; must stay untouched
	Dir     string // the step's working directory; must stay untouched
	TempDir string // Attach.TempDir (0700)
	Record  string // FAKE_RECORD prefix
	Binary  string // the fake CLI
}

// New builds a harness under t.TempDir().
func New(t testing.TB) *Harness {
	t.Helper()
	root := t.TempDir()
	h := &Harness{
		T: t, Home: filepath.Join(root, "home"), Dir: filepath.Join(root, "work"),
		TempDir: filepath.Join(root, "step-tmp"), Record: filepath.Join(root, "rec"), Binary: Script(t),
	}
	for _, d := range []string{h.Home, h.Dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(h.TempDir, 0o700); err != nil {
		t.Fatal(err)
	}
	return h
}

// Config is a cli.Config over a made-up environment (PATH for sh and coreutils, the fake
// HOME) with short grace periods, so tests neither see nor depend on the developer's setup.
func (h *Harness) Config(extraEnv ...string) cli.Config {
	env := append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + h.Home, "LANG=C.UTF-8"}, extraEnv...)
	return cli.Config{Environ: env, Linger: 50 * time.Millisecond, Grace: 300 * time.Millisecond}
}

// Attach is the attachment ToolProxyService would hand over for a step.
func (h *Harness) Attach(intercept bool, tools ...string) *ports.ProxyAttachment {
	return &ports.ProxyAttachment{
		ServerName: "awf", Command: "/opt/awf/bin/awf", Args: []string{"mcp-serve", "--config", filepath.Join(h.TempDir, "serve.json")},
		Tools: tools, InterceptBuiltins: intercept, TempDir: h.TempDir,
	}
}

// Options returns step options that run the fake CLI: binary, plus env steering it to record
// itself, copy the private directory and print stdoutFile ("" prints nothing). more adds to or
// replaces entries; its "env" entries are merged.
func (h *Harness) Options(stdoutFile string, more map[string]any) map[string]any {
	env := map[string]any{"FAKE_RECORD": h.Record, "FAKE_COPY": h.TempDir}
	if stdoutFile != "" {
		abs, err := filepath.Abs(stdoutFile)
		if err != nil {
			h.T.Fatal(err)
		}
		env["FAKE_STDOUT"] = abs
	}
	opts := map[string]any{"binary": h.Binary}
	for k, v := range more {
		if k == "env" {
			for ek, ev := range v.(map[string]any) {
				env[ek] = ev
			}
			continue
		}
		opts[k] = v
	}
	opts["env"] = env
	return opts
}

// Request is an agent request for the step, with the given options and attachment.
func (h *Harness) Request(prompt string, opts map[string]any, attach *ports.ProxyAttachment) ports.AgentRequest {
	return ports.AgentRequest{RunID: "run-1", Step: "ask", Prompt: prompt, Options: opts, Dir: h.Dir, Attach: attach}
}

// Watch snapshots Home and Dir; the returned func fails the test if either changed, and if the
// provider's private directory outlived the run.
func (h *Harness) Watch(provider string) func() {
	h.T.Helper()
	home, dir := Snapshot(h.T, h.Home), Snapshot(h.T, h.Dir)
	return func() {
		h.T.Helper()
		if got := Snapshot(h.T, h.Home); !reflect.DeepEqual(got, home) {
			h.T.Errorf("the run changed HOME: %v → %v", home, got)
		}
		if got := Snapshot(h.T, h.Dir); !reflect.DeepEqual(got, dir) {
			h.T.Errorf("the run changed the step's dir: %v → %v", dir, got)
		}
		if _, err := os.Stat(filepath.Join(h.TempDir, provider)); !os.IsNotExist(err) {
			h.T.Errorf("the private directory %s/%s outlived the run", h.TempDir, provider)
		}
	}
}

// Read loads what the fake CLI recorded.
func (h *Harness) Read() Record { return Read(h.T, h.Record) }

// AssertGone reads the pid the fake CLI's background child wrote to pidfile and fails the test
// if that process is still alive (zombies awaiting their reaper count as gone).
func AssertGone(t testing.TB, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the fake CLI never started its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("bad pid file: %q", b)
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !liveProcess(pid) {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("process %d outlived the step", pid)
}

func liveProcess(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	f := bytes.Fields(b[i+1:])
	return len(f) > 0 && f[0][0] != 'Z' && f[0][0] != 'X'
}

// CheckCancel runs a step whose fake CLI leaves a child that ignores SIGTERM, cancels it as
// Ctrl+C would, and checks that Run reports the stop (code EXECUTION.AGENT.STOPPED, wrapping
// context.Canceled), that no process of the group survived, and that nothing leaked out of
// the private directory.
func (h *Harness) CheckCancel(provider ports.AgentProvider, attach *ports.ProxyAttachment) {
	h.T.Helper()
	check := h.Watch(provider.Name())
	pidfile := filepath.Join(filepath.Dir(h.Record), "cancel.pid")
	opts := h.Options("", map[string]any{"env": map[string]any{"FAKE_PIDFILE": pidfile, "FAKE_STUBBORN": "1"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := provider.Run(ctx, h.Request("p", opts, attach))
		errc <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(pidfile); err == nil {
			break
		}
	}
	cancel()
	select {
	case err := <-errc:
		if fault.CodeOf(err) != fault.ExecutionAgentStopped || !errors.Is(err, context.Canceled) {
			h.T.Errorf("want %s wrapping context.Canceled, got %v", fault.ExecutionAgentStopped, err)
		}
	case <-time.After(10 * time.Second):
		h.T.Fatal("Run did not return after Ctrl+C")
	}
	AssertGone(h.T, pidfile)
	check()
}
