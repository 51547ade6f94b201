package plugins

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/tests/testkit"
)

// TestPluginProcessIsolation checks how a plugin runs: stdin is /dev/null (never awf's stdin,
// which carries MCP in mcp-serve) and it leads its own process group.
func TestPluginProcessIsolation(t *testing.T) {
	f := newFixture(t, "", Options{})
	f.exec(t, "echo", "echo", `{"text":"x"}`)
	pid := f.pid(t, "echo")
	stdin, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil {
		testkit.Skipf(t, "cannot inspect /proc: %v", err)
	}
	if stdin != os.DevNull {
		t.Errorf("plugin stdin = %s, want %s", stdin, os.DevNull)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(stat)[strings.LastIndexByte(string(stat), ')')+1:])
	if pgrp, _ := strconv.Atoi(fields[2]); pgrp != pid {
		t.Errorf("plugin process group = %d, want its own (%d)", pgrp, pid)
	}
}

// TestPluginDiesWithItsHost kills an awf-like process that never closed its host and checks
// that its plugin dies too (parent-death signal): no orphan even when awf is SIGKILLed.
func TestPluginDiesWithItsHost(t *testing.T) {
	f := newFixture(t, "", Options{})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+f.file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("helper said %q (%v)", line, err)
	}
	if !alive(pid) {
		t.Fatalf("plugin %d is not running", pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("plugin %d outlived its killed host", pid)
	}
}

func TestNewDerivesTheRootFromTheFile(t *testing.T) {
	tests := []struct{ file, root string }{
		{"/p/.awf/plugins.yaml", "/p"},
		{"/p/conf/plugins.yaml", "/p/conf"},
	}
	for _, tt := range tests {
		if got := New(Options{File: tt.file}).opts.Root; got != tt.root {
			t.Errorf("root of %s = %s, want %s", tt.file, got, tt.root)
		}
	}
	if got := New(Options{Root: "/r"}).opts.File; got != "/r/.awf/plugins.yaml" {
		t.Errorf("default file = %s", got)
	}
}

// TestHostQuietOnNormalLifecycle: starting, calling and closing plugins logs nothing at warn or
// above, so awf's terminal (which shows warnings) stays clean when all goes well.
func TestHostQuietOnNormalLifecycle(t *testing.T) {
	f := newFixture(t, "", Options{})
	f.exec(t, "echo", "echo", `{"text":"x"}`)
	f.exec(t, "notes", "list", `{}`)
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	for _, e := range f.logs.All() {
		if e.Level >= zapcore.WarnLevel {
			t.Errorf("%s log on a normal lifecycle: %s %v", e.Level, e.Message, e.ContextMap())
		}
	}
}
