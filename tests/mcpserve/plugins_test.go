package mcpserve_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/testkit"
)

// pluginsFile declares the example plugins (built by TestMain) for a project in a temp dir.
func pluginsFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	body := fmt.Sprintf("plugins:\n  echo:\n    command: %s/echo\n  notes:\n    command: %s/notes\n    config:\n      dir: %s\n",
		pluginDir, pluginDir, filepath.Join(dir, "notes-data"))
	p := filepath.Join(dir, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func pluginConfig(t *testing.T, extra map[string]any) map[string]any {
	cfg := map[string]any{
		"plugins_file": pluginsFile(t),
		"plugin_tools": []map[string]any{{"plugin": "notes", "expose": []string{"get", "put", "list", "delete"}}, {"plugin": "echo", "expose": []string{"echo"}}},
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

func TestPluginToolsOverMCP(t *testing.T) {
	s := start(t, pluginConfig(t, nil))
	got := strings.Join(listNames(t, s), ",")
	if got != "Bash,Edit,Glob,Grep,Read,Write,echo_echo,notes_delete,notes_get,notes_list,notes_put" {
		t.Fatalf("tools/list = %s", got)
	}
	res, _ := s.session.ListTools(context.Background(), nil)
	for _, tl := range res.Tools {
		if tl.Name == "notes_delete" && (tl.Annotations == nil || tl.Annotations.DestructiveHint == nil || !*tl.Annotations.DestructiveHint) {
			t.Errorf("notes_delete lost its destructive hint: %+v", tl.Annotations)
		}
	}
	if out, isErr := s.call(t, "notes_put", map[string]any{"key": "k1", "text": "hello from a plugin"}); isErr {
		t.Fatalf("notes_put: %s", out)
	}
	if out, isErr := s.call(t, "notes_get", map[string]any{"key": "k1"}); isErr || !strings.Contains(out, "hello from a plugin") {
		t.Fatalf("notes_get: %v %s", isErr, out)
	}
	if out, isErr := s.call(t, "notes_get", map[string]any{"key": 7}); !isErr || !strings.Contains(out, "key") {
		t.Fatalf("wrong-typed plugin argument: %v %s", isErr, out)
	}
	if out, isErr := s.call(t, "notes_get", map[string]any{"key": "no-such-note"}); !isErr || !strings.Contains(out, "no-such-note") {
		t.Fatalf("plugin error for a missing note: %v %s", isErr, out)
	}
	recs := s.records(t)
	if len(recs) != 4 || recs[0]["source"] != "plugin:notes" || recs[2]["outcome"] != "error" || recs[3]["outcome"] != "error" {
		t.Fatalf("records %v", recs)
	}
}

func TestPluginIntentInSplitMode(t *testing.T) {
	s := start(t, pluginConfig(t, map[string]any{"intent": map[string]any{"split": true}}))
	out, isErr := s.call(t, "call_tool_read", map[string]any{"name": "notes_delete", "args": map[string]any{"key": "k"}})
	if !isErr || !strings.Contains(out, "Tool 'notes_delete' is marked destructive by server, use call_tool_destructive") {
		t.Fatalf("notes_delete through the read door: %v %q", isErr, out)
	}
	if out, isErr := s.call(t, "call_tool_read", map[string]any{"name": "echo_echo", "args": map[string]any{"text": "via split"}}); isErr || !strings.Contains(out, "via split") {
		t.Fatalf("echo through the read door: %v %q", isErr, out)
	}
}

// pluginPIDs lists live processes running one of the built example plugins.
func pluginPIDs(t *testing.T) []int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, pluginDir) && procAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestPluginCrashMidCallAndNoOrphans(t *testing.T) {
	s := start(t, pluginConfig(t, nil))
	done := make(chan string, 1)
	go func() {
		res, err := s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo_echo", Arguments: map[string]any{"text": "slow", "delay_ms": 30000}})
		if err != nil {
			done <- "protocol error: " + err.Error()
			return
		}
		done <- fmt.Sprintf("%v %s", res.IsError, text(res))
	}()
	// echo logs a debug line when the slow call reaches its handler; mcp-serve writes it to its
	// log file, the only sign another process gives.
	inHandler := testkit.Eventually(10*time.Second, func() bool {
		b, _ := os.ReadFile(s.log)
		return bytes.Contains(b, []byte(plugintest.EchoWaiting))
	})
	victims := pluginPIDs(t)
	if !inHandler || len(victims) == 0 {
		t.Fatalf("the slow call never reached the echo plugin (in handler %v, plugin pids %v)", inHandler, victims)
	}
	for _, pid := range victims {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	select {
	case got := <-done:
		if !strings.HasPrefix(got, "true") || !strings.Contains(got, "echo") {
			t.Fatalf("call during crash: %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("call hung after the plugin died")
	}
	// The next call restarts the plugin.
	if out, isErr := s.call(t, "echo_echo", map[string]any{"text": "back"}); isErr || !strings.Contains(out, "back") {
		t.Fatalf("after restart: %v %s", isErr, out)
	}
	if len(pluginPIDs(t)) == 0 {
		t.Fatal("no plugin running after restart")
	}
	// mcp-serve exits on stdin EOF and takes its plugins with it.
	_ = s.session.Close()
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("mcp-serve did not exit")
	}
	testkit.Eventually(5*time.Second, func() bool { return len(pluginPIDs(t)) == 0 })
	if left := pluginPIDs(t); len(left) > 0 {
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		t.Fatalf("plugin processes left after mcp-serve exited: %v", left)
	}
}

func TestUnknownOperationFailsStartup(t *testing.T) {
	cfg := writeConfig(t, map[string]any{"root_dir": t.TempDir(), "plugins_file": pluginsFile(t),
		"plugin_tools": []map[string]any{{"plugin": "notes", "expose": []string{"gett"}}}})
	cmd := exec.Command(awfBin, "mcp-serve", "--config", cfg)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v; stderr %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "USER.MCP_PROXY.UNKNOWN_OPERATION") || !strings.Contains(stderr.String(), "get") || stdout.Len() != 0 {
		t.Fatalf("stderr %q stdout %q", stderr.String(), stdout.String())
	}
}
