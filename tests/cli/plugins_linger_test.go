package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/testkit"
)

// TestPluginsListDoesNotWaitOnALingeringServer: a bridged server whose launcher never answers,
// ignores SIGTERM and leaves setsid and double-forked helpers holding its stderr fails its
// start after startup_timeout; `awf plugins list` then returns without waiting on them (a
// failed start is killed at once, with its whole tree), and none of the server's processes
// remains.
func TestPluginsListDoesNotWaitOnALingeringServer(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "launch.sh")
	body := fmt.Sprintf(`#!/bin/sh
setsid sh -c 'echo $$ > %[1]s/p1; sleep 30; touch %[1]s/m1' &
( sh -c 'echo $$ > %[1]s/p2; sleep 30; touch %[1]s/m2' & )
trap '' TERM
sleep 30
`, dir)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".awf"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf("plugins:\n  slow:\n    type: mcp\n    command: %s\n    startup_timeout: 2s\n", script)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killNaming(dir) })
	start := time.Now()
	r := awf(t, dir, []string{"HOME=" + dir, "TMPDIR=" + dir}, "plugins", "list")
	took := time.Since(start)
	if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "did not initialize within 2s") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// 2 s of startup, then the kill; the bound leaves room for a loaded machine.
	if took > 5*time.Second {
		t.Errorf("plugins list took %v for a 2 s startup timeout", took)
	}
	for _, f := range []string{"p1", "p2"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 {
			t.Fatalf("%s never started", f)
		}
		if !testkit.Eventually(2*time.Second, func() bool { return !testkit.Alive(pid) }) {
			t.Errorf("%s (pid %d) outlived plugins list", f, pid)
		}
	}
	t.Logf("plugins list returned after %v", took)
}

// TestPluginsListReturnsWithinTheStartupTimeout: a real MCP server started through a launcher
// that runs it in the background and waits (so the server's stdin is not awf's pipe, and it
// lives on after awf closes the launcher's stdin) never answers initialize. `awf plugins list
// --format json` reports the failed start and returns within the configured startup_timeout,
// plus the little it takes to start awf and kill the tree: a start that failed is ended at
// once, without the stdin-EOF wait and SIGTERM grace a running server gets (0.8 s and more).
// The server is gone afterwards.
func TestPluginsListReturnsWithinTheStartupTimeout(t *testing.T) {
	const startup = 3 * time.Second
	dir := t.TempDir()
	bin := plugintest.MCPFixture(t, t.TempDir())
	script := filepath.Join(dir, "launch.sh")
	body := fmt.Sprintf("#!/bin/sh\nsleep 60 | %s &\necho $! > %s/server.pid\nwait\n", bin, dir)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".awf"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf("plugins:\n  lingering:\n    type: mcp\n    command: %s\n    startup_timeout: %s\n", script, startup)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killNaming(dir) })
	start := time.Now()
	r := awf(t, dir, []string{"HOME=" + dir, "TMPDIR=" + dir}, "plugins", "list", "--format", "json")
	took := time.Since(start)
	if r.code != 3 || !strings.Contains(r.stdout, `"state": "failed"`) || !strings.Contains(r.stdout, "did not initialize within 3s") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if limit := startup + startup/5; took > limit {
		t.Errorf("plugins list took %v for a %v startup timeout (limit %v)", took, startup, limit)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "server.pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid == 0 {
		t.Fatal("the launcher never started the server")
	}
	if !testkit.Eventually(2*time.Second, func() bool { return !testkit.Alive(pid) }) {
		t.Errorf("the server (pid %d) outlived plugins list", pid)
	}
	t.Logf("plugins list returned after %v", took)
}

// killNaming SIGKILLs the processes whose command line contains s.
func killNaming(s string) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && strings.Contains(string(b), s) {
			if pid, err := strconv.Atoi(e.Name()); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}
