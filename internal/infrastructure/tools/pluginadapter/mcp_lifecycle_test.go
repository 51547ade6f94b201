package pluginadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

func TestMCPCrashRestartAndCrashLoop(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n", bin))
	p := New(h, "fix", []string{"crash", "echo"})
	ctx := context.Background()
	if _, err := p.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := p.CallTool(ctx, "fix_crash", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), `"fix"`) || fault.CodeOf(err) != fault.ExecutionPluginCrashed || time.Since(start) > 10*time.Second {
		t.Fatalf("crash mid-call: %v after %s", err, time.Since(start))
	}
	if res, err := p.CallTool(ctx, "fix_echo", json.RawMessage(`{"text":"again"}`)); err != nil || res.JoinedText() != "echo: again" {
		t.Fatalf("after a crash the next call restarts the server: %+v %v", res, err)
	}
	for range plugins.DefaultMaxCrashes {
		_, _ = p.CallTool(ctx, "fix_crash", json.RawMessage(`{}`))
	}
	_, err = p.CallTool(ctx, "fix_echo", json.RawMessage(`{"text":"x"}`))
	if fault.CodeOf(err) != fault.ExecutionPluginCrashLoop {
		t.Errorf("after %d crashes in a row: %v", plugins.DefaultMaxCrashes, err)
	}
}

func TestMCPStartupTimeout(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  slow: {type: mcp, command: %s, args: [-hang], startup_timeout: 500ms}\n", bin))
	_, err := h.Operations(context.Background(), "slow")
	if fault.CodeOf(err) != fault.ExecutionPluginStartFailed || !strings.Contains(err.Error(), `"slow"`) || !strings.Contains(err.Error(), bin) ||
		!strings.Contains(err.Error(), "hanging before initialize") || !strings.Contains(err.Error(), "500ms") {
		t.Errorf("err = %v", err)
	}
	if left := plugintest.Processes(t, bin); len(left) > 0 {
		t.Errorf("hung server left running: %v", left)
	}
}

// TestGRPCPluginsArePinnedToo: the lock covers gRPC plugins as well; a tampered pin refuses the
// step's tool, a broken lock file is USER.PLUGINS.LOCK_INVALID.
func TestGRPCPluginsArePinnedToo(t *testing.T) {
	h, _, _ := realHost(t)
	ctx := context.Background()
	l, err := h.WriteLock(ctx)
	if err != nil || len(l.Plugins["notes"]) != 4 {
		t.Fatalf("lock = %+v, %v", l, err)
	}
	entries := []toolset.PluginTools{{Plugin: "notes", Expose: []string{"get", "put"}}}
	if _, err := Providers(h, entries)[0].ListTools(ctx); err != nil {
		t.Fatalf("pinned, unchanged: %v", err)
	}
	pin := l.Plugins["notes"]["put"]
	pin.Fingerprint, pin.Annotations = "0", "0"
	l.Plugins["notes"]["put"] = pin
	b, _ := json.Marshal(l)
	if err := os.WriteFile(h.LockFile(), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Providers(h, entries)[0].ListTools(ctx)
	if fault.CodeOf(err) != fault.UserMCPProxyToolChanged || !strings.Contains(err.Error(), `tool "put": annotations changed`) || strings.Contains(err.Error(), `"get"`) {
		t.Errorf("tampered pin: %v", err)
	}
	if err := os.WriteFile(h.LockFile(), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = Providers(h, entries)[0].ListTools(ctx); fault.CodeOf(err) != fault.UserPluginsLockInvalid {
		t.Errorf("broken lock: %v", err)
	}
}

// BenchmarkMCPBridgedCall measures one echo call to the fixture MCP server through the router
// (schema check, intent rule, record) next to the same call made directly with the go-sdk
// client session the host holds, without the router (sub-benchmark direct).
func BenchmarkMCPBridgedCall(b *testing.B) {
	dir := b.TempDir()
	bin := plugintest.MCPFixture(b, dir)
	root, file := plugintest.Project(b, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n", bin))
	h := plugins.New(plugins.Options{Root: root, File: file})
	defer h.Close()
	ctx := context.Background()
	r, err := routing.NewRouter(ctx, routing.Options{}, Providers(h, []toolset.PluginTools{{Plugin: "fix", Expose: []string{"echo"}}})...)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	args := json.RawMessage(`{"text":"x"}`)
	b.Run("bridged", func(b *testing.B) {
		for b.Loop() {
			if res := r.CallTool(ctx, "fix_echo", args); res.IsError {
				b.Fatal(res.JoinedText())
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.Execute(ctx, "fix", "echo", args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
