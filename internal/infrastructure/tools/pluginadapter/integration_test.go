package pluginadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	if fixtureBin != "" {
		_ = os.RemoveAll(filepath.Dir(fixtureBin))
	}
	os.Exit(code)
}

// realHost is a plugin host over the built example plugins. echoWaiting receives a signal each
// time a slow echo call reaches the plugin's handler.
func realHost(tb testing.TB) (h *plugins.Host, bins map[string]string, echoWaiting <-chan struct{}) {
	tb.Helper()
	bins = plugintest.Build(tb, "echo", "notes")
	root, file := plugintest.Project(tb, fmt.Sprintf("plugins:\n  echo: {command: %s}\n  notes: {command: %s, config: {dir: notes}}\n", bins["echo"], bins["notes"]))
	hook, echoWaiting := plugintest.OnLog(plugintest.EchoWaiting)
	h = plugins.New(plugins.Options{Root: root, File: file, Logger: zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewDevelopmentEncoderConfig()), zapcore.AddSync(io.Discard), zapcore.DebugLevel), hook)})
	tb.Cleanup(func() { _ = h.Close() })
	return h, bins, echoWaiting
}

func TestRealPluginsThroughTheRouter(t *testing.T) {
	h, bins, echoWaiting := realHost(t)
	ctx := context.Background()
	router, err := routing.NewRouter(ctx, routing.Options{}, Providers(h, []toolset.PluginTools{
		{Plugin: "echo", Expose: []string{"echo"}},
		{Plugin: "notes", Expose: []string{"get", "list", "put", "delete"}},
	})...)
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	defer router.Close()
	var names []string
	for _, d := range router.ListTools() {
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "echo_echo,notes_get,notes_list,notes_put,notes_delete" {
		t.Fatalf("tools = %v", names)
	}
	del, _ := router.Lookup("notes_delete")
	put, _ := router.Lookup("notes_put")
	if !del.Annotations.Destructive() || put.Annotations.ReadOnly() || put.Annotations.Destructive() || put.Annotations.ReadOnlyHint == nil {
		t.Errorf("annotations lost: delete %+v, put %+v", del.Annotations, put.Annotations)
	}
	var schema struct {
		Properties map[string]struct {
			Type       string
			Properties map[string]struct {
				Enum    []string
				Default string
			}
			Items struct{ Type string }
		}
	}
	if err := json.Unmarshal(put.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	prio := schema.Properties["meta"].Properties["priority"]
	if strings.Join(prio.Enum, ",") != "low,normal,high" || prio.Default != "normal" || schema.Properties["tags"].Items.Type != "string" {
		t.Errorf("put schema lost nested enum/default/array items: %s", put.InputSchema)
	}

	tests := []struct {
		tool, args string
		isErr      bool
		want       string
	}{
		{"echo_echo", `{"text":"hello"}`, false, "hello"},
		{"notes_put", `{"key":"k1","text":"first","meta":{"priority":"low"}}`, false, `created note "k1"`},
		{"notes_get", `{"key":"k1"}`, false, `"priority":"low"`},
		{"notes_get", `{"key":"nope"}`, true, `no note with key "nope"`},                                 // the plugin's own error
		{"notes_put", `{"key":"k2","text":"x","meta":{"priority":"urgent"}}`, true, "invalid arguments"}, // schema (enum) violation, refused before the plugin
		{"echo_echo", `{"text":1}`, true, "invalid arguments"},
		{"notes_delete", `{"key":"k1"}`, false, `deleted note "k1"`},
	}
	for _, tt := range tests {
		res := router.CallTool(ctx, tt.tool, json.RawMessage(tt.args))
		if res.IsError != tt.isErr || !strings.Contains(res.JoinedText(), tt.want) {
			t.Errorf("%s(%s) = %+v, want isError=%v containing %q", tt.tool, tt.args, res, tt.isErr, tt.want)
		}
	}

	// A plugin killed during a call: that call gets a prompt error result naming the plugin,
	// and the next call works again.
	done := make(chan string, 1)
	go func() {
		res := router.CallTool(ctx, "echo_echo", json.RawMessage(`{"text":"slow","delay_ms":20000}`))
		done <- fmt.Sprintf("%v %s", res.IsError, res.JoinedText())
	}()
	plugintest.Await(t, echoWaiting, 10*time.Second, "the slow call to reach echo's handler")
	pids := plugintest.Processes(t, bins["echo"])
	if len(pids) != 1 {
		t.Fatalf("echo processes = %v", pids)
	}
	start := time.Now()
	_ = syscall.Kill(pids[0], syscall.SIGKILL)
	select {
	case got := <-done:
		if !strings.HasPrefix(got, "true ") || !strings.Contains(got, `plugin "echo" exited during the call`) {
			t.Errorf("killed call = %s", got)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("killed call returned after %s", took)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call hung after its plugin was killed")
	}
	if res := router.CallTool(ctx, "echo_echo", json.RawMessage(`{"text":"again"}`)); res.IsError || res.JoinedText() != "again" {
		t.Errorf("call after the crash = %+v", res)
	}
}

func TestRouterRejectsPluginCollisions(t *testing.T) {
	h, _, _ := realHost(t)
	_, err := routing.NewRouter(context.Background(), routing.Options{}, Providers(h, []toolset.PluginTools{
		{Plugin: "notes", Expose: []string{"get", "list"}},
		{Plugin: "notes", Expose: []string{"list"}},
	})...)
	if fault.CodeOf(err) != fault.UserMCPProxyNameCollision || !strings.Contains(err.Error(), `"notes_list" is listed twice by plugin:notes`) {
		t.Errorf("NewRouter = %v, want a collision on notes_list", err)
	}
	_, err = routing.NewRouter(context.Background(), routing.Options{}, Providers(h, []toolset.PluginTools{{Plugin: "notes", Expose: []string{"gett"}}})...)
	if err == nil || !strings.Contains(err.Error(), `no operation "gett"`) || !strings.Contains(err.Error(), "did you mean 'get'?") {
		t.Errorf("NewRouter with an unknown operation = %v", err)
	}
}

// BenchmarkPluginCall measures one echo call through the adapter to a running plugin process
// (gRPC round trip over a Unix socket), reporting the median and 99th percentile.
func BenchmarkPluginCall(b *testing.B) {
	h, _, _ := realHost(b)
	p := New(h, "echo", []string{"echo"})
	ctx := context.Background()
	if _, err := p.ListTools(ctx); err != nil { // starts the plugin outside the timing
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"hello"}`)
	durations := make([]time.Duration, 0, 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		res, err := p.CallTool(ctx, "echo_echo", args)
		durations = append(durations, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("call failed: %+v %v", res, err)
		}
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds()), "p99-ns")
}

// TestRouterCloseStopsOwnedPlugins: with Owned providers, the router's Close is all it takes to
// stop the plugin processes, and so is a NewRouter that fails.
func TestRouterCloseStopsOwnedPlugins(t *testing.T) {
	h, bins, _ := realHost(t)
	entries := []toolset.PluginTools{{Plugin: "echo", Expose: []string{"echo"}}, {Plugin: "notes", Expose: []string{"get"}}}
	router, err := routing.NewRouter(context.Background(), routing.Options{}, Owned(h, h, entries)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(plugintest.Processes(t, bins["echo"])) != 1 || len(plugintest.Processes(t, bins["notes"])) != 1 {
		t.Fatal("listing the tools did not start both plugins")
	}
	if err := router.Close(); err != nil {
		t.Fatal(err)
	}
	for name, bin := range bins {
		if pids := plugintest.Processes(t, bin); len(pids) != 0 {
			t.Errorf("%s processes after the router closed: %v", name, pids)
		}
	}

	h2, _, _ := realHost(t)
	_, err = routing.NewRouter(context.Background(), routing.Options{}, Owned(h2, h2, []toolset.PluginTools{{Plugin: "echo", Expose: []string{"nope"}}})...)
	if err == nil {
		t.Fatal("NewRouter accepted an unknown operation")
	}
	if pids := plugintest.Processes(t, bins["echo"]); len(pids) != 0 {
		t.Errorf("echo processes after a failed NewRouter: %v", pids)
	}
}
