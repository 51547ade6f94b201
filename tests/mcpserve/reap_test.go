package mcpserve_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/testkit"
)

// launcher is a bridged server's command as npx or uvx would run it: a shell that starts a
// setsid helper, runs the real server as its child (not exec) and lingers after it, deaf to
// SIGTERM. Every process it starts names dir in its command line.
const launcher = `#!/bin/sh
setsid sh -c 'echo $$ > %[1]s/p1; sleep 30; touch %[1]s/m1' </dev/null >/dev/null 2>&1 &
( sh -c 'echo $$ > %[1]s/p2; sleep 30; touch %[1]s/m2' </dev/null >/dev/null 2>&1 & )
trap '' TERM
%[2]s "$@"
sleep 30
`

// TestServeEndsWithItsServersOnEOF: within 2 s of its stdin closing, mcp-serve has exited and
// so has every process of the bridged server it started: the launcher, the server below it,
// and the helpers that left with setsid or a double fork.
func TestServeEndsWithItsServersOnEOF(t *testing.T) {
	fixture := plugintest.MCPFixture(t, t.TempDir())
	dir := t.TempDir()
	script := filepath.Join(dir, "launch.sh")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(launcher, dir, fixture)), 0o755); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(dir, "plugins.yaml")
	body := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n", script)
	if err := os.WriteFile(plugins, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, map[string]any{"root_dir": t.TempDir(), "plugins_file": plugins,
		"plugin_tools": []map[string]any{{"plugin": "fix", "expose": []string{"echo", "spawn"}}}})
	cmd := exec.Command(serveBin, "mcp-serve", "--config", cfg)
	cmd.Env = append(os.Environ(), "HOME="+dir, "TMPDIR="+dir)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited; killNaming(dir) })
	r := &rawServer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	res := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fix_spawn","arguments":{}}}`)
	if !strings.Contains(fmt.Sprint(res), "result") {
		t.Fatalf("fix_spawn: %v", res)
	}
	if !testkit.Eventually(20*time.Second, func() bool { return fileInt(dir, "p1") > 0 && fileInt(dir, "p2") > 0 }) {
		t.Fatal("the launcher's helpers never started")
	}
	if len(procsNaming(dir)) < 3 {
		t.Fatalf("want the launcher and its helpers running, got %v", procsNaming(dir))
	}
	_ = in.Close()
	closed := time.Now()
	select {
	case <-exited:
	case <-time.After(2 * time.Second):
		t.Fatalf("mcp-serve still running 2 s after its stdin closed")
	}
	for !(len(procsNaming(dir)) == 0 && !testkit.Alive(fileInt(dir, "p1")) && !testkit.Alive(fileInt(dir, "p2"))) {
		if time.Since(closed) > 2*time.Second {
			t.Fatalf("2 s after stdin closed, still running: %v", procsNaming(dir))
		}
		time.Sleep(20 * time.Millisecond) // polling /proc
	}
	t.Logf("mcp-serve and its servers gone %v after stdin closed", time.Since(closed))
}

func fileInt(dir, name string) int {
	b, _ := os.ReadFile(filepath.Join(dir, name))
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// procsNaming lists live processes whose command line contains s.
func procsNaming(s string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !testkit.Alive(pid) {
			continue
		}
		if b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); strings.Contains(string(b), s) {
			out = append(out, pid)
		}
	}
	return out
}

func killNaming(s string) {
	for _, p := range procsNaming(s) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}
