package pluginadapter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

var (
	fixtureOnce sync.Once
	fixtureBin  string
)

// mcpFixture returns the built fixture MCP server (tests/mcpfixture).
func mcpFixture(t *testing.T) string {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "awf-mcpfixture-")
		if err != nil {
			t.Fatal(err)
		}
		fixtureBin = plugintest.MCPFixture(t, dir)
	})
	if fixtureBin == "" {
		t.Fatal("fixture not built")
	}
	return fixtureBin
}

// mcpHost is a host over a plugins.yaml whose entries are written by body(fixture path).
func mcpHost(t *testing.T, manifest string) *plugins.Host {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	root, file := plugintest.Project(t, manifest)
	h := plugins.New(plugins.Options{Root: root, File: file})
	t.Cleanup(func() { _ = h.Close() })
	return h
}

type records struct {
	mu  sync.Mutex
	all []activity.Record
}

func (r *records) Append(_ context.Context, rec activity.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, rec)
	return nil
}

func TestMCPServerThroughTheRouter(t *testing.T) {
	bin := mcpFixture(t)
	t.Setenv("FIXTURE_VAR", "from-awf")
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret")
	h := mcpHost(t, fmt.Sprintf(`plugins:
  fix:
    type: mcp
    command: %[1]s
    env: {FOO: "x-${FIXTURE_VAR}"}
    annotations:
      get-sum: {readOnlyHint: true}
  raw:
    type: mcp
    command: %[1]s
`, bin))
	rec := &records{}
	ctx := context.Background()
	router, err := routing.NewRouter(ctx, routing.Options{Activity: rec}, Providers(h, []toolset.PluginTools{
		{Plugin: "fix", Expose: []string{"echo", "get-*", "delete_all"}},
		{Plugin: "raw", Expose: []string{"get-sum"}},
	})...)
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	defer router.Close()
	var names []string
	for _, d := range router.ListTools() {
		names = append(names, d.Name+"="+string(tool.CallWith(d.Annotations))+"@"+string(d.Source))
	}
	want := "fix_echo=read@mcp:fix,fix_get-env=read@mcp:fix,fix_get-sum=read@mcp:fix,fix_delete_all=destructive@mcp:fix,raw_get-sum=destructive@mcp:raw"
	if got := strings.Join(names, ","); got != want {
		t.Fatalf("tools:\n got %s\nwant %s", got, want)
	}
	if res := router.CallTool(ctx, "fix_echo", json.RawMessage(`{"text":"hi"}`)); res.IsError || res.JoinedText() != "echo: hi" {
		t.Errorf("echo = %+v", res)
	}
	env := router.CallTool(ctx, "fix_get-env", json.RawMessage(`{}`)).JoinedText()
	if !strings.Contains(env, "FOO=x-from-awf") || !strings.Contains(env, "PATH=") || strings.Contains(env, "ANTHROPIC_API_KEY") || strings.Contains(env, "FIXTURE_VAR") {
		t.Errorf("the server's environment:\n%s", env)
	}
	// allow: [read] — the unannotated tool is destructive by the MCP defaults and refused; the
	// user's override made fix's get-sum read-only.
	exp := routing.NewExposure(router, routing.IntentSettings{Strict: true, Allow: []tool.Variant{tool.VariantRead}})
	if res := exp.CallTool(ctx, "raw_get-sum", json.RawMessage(`{"a":1,"b":2}`)); !res.IsError {
		t.Errorf("unannotated tool under allow [read] = %+v, want a refusal", res)
	}
	if res := exp.CallTool(ctx, "fix_get-sum", json.RawMessage(`{"a":1,"b":2}`)); res.IsError || res.JoinedText() != "3" {
		t.Errorf("overridden read-only get-sum = %+v", res)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.all) != 4 || rec.all[0].Source != "mcp:fix" || rec.all[2].Source != "mcp:raw" || rec.all[2].Outcome == activity.OutcomeSuccess {
		t.Errorf("records: %+v", rec.all)
	}
}

func TestMCPExposeErrors(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n  %s: {type: mcp, command: %s}\n", bin, strings.Repeat("p", 60), bin))
	_, err := routing.NewRouter(context.Background(), routing.Options{}, Providers(h, []toolset.PluginTools{{Plugin: "fix", Expose: []string{"ecoh", "nothing-*"}}})...)
	if fault.CodeOf(err) != fault.UserMCPProxyUnknownOperation || !strings.Contains(err.Error(), "did you mean 'echo'") || !strings.Contains(err.Error(), "nothing-*") {
		t.Errorf("unknown tools: %v", err)
	}
	_, err = routing.NewRouter(context.Background(), routing.Options{}, Providers(h, []toolset.PluginTools{{Plugin: strings.Repeat("p", 60), Expose: []string{"echo"}}})...)
	if fault.CodeOf(err) != fault.UserMCPProxyToolNameTooLong {
		t.Errorf("long name: %v", err)
	}
}

func TestMCPUnsetVariable(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s, env: {K: \"${AWF_TEST_SURELY_UNSET}\"}}\n", bin))
	_, err := h.Operations(context.Background(), "fix")
	if fault.CodeOf(err) != fault.UserPluginsEnvUnset || !strings.Contains(err.Error(), "AWF_TEST_SURELY_UNSET") {
		t.Errorf("err = %v", err)
	}
}

// alive reports whether pid is a live (non-zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

func TestMCPServerLeavesNoProcess(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n", bin))
	p := New(h, "fix", []string{"spawn"})
	if _, err := p.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := p.CallTool(context.Background(), "fix_spawn", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(res.JoinedText())
	if !alive(child) {
		t.Fatalf("grandchild %q not running", res.JoinedText())
	}
	servers := plugintest.Processes(t, bin)
	if len(servers) != 1 {
		t.Fatalf("server processes = %v", servers)
	}
	_ = h.Close()
	deadline := time.Now().Add(5 * time.Second)
	for (alive(child) || alive(servers[0])) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // polling the kernel's view, not synchronising goroutines
	}
	if alive(child) || alive(servers[0]) {
		t.Errorf("left running: grandchild %v, server %v", alive(child), alive(servers[0]))
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
}

func TestMCPPinsCatchChangedTools(t *testing.T) {
	bin := mcpFixture(t)
	manifest := fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s, env: {FIXTURE_FLIP: \"${FLIP}\"}}\n", bin)
	root, file := plugintest.Project(t, manifest)
	t.Setenv("FLIP", "")
	h := plugins.New(plugins.Options{Root: root, File: file})
	if _, err := h.WriteLock(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = h.Close()
	expose := []toolset.PluginTools{{Plugin: "fix", Expose: []string{"echo", "get-env"}}}
	// Unchanged: accepted.
	h = plugins.New(plugins.Options{Root: root, File: file})
	r, err := routing.NewRouter(context.Background(), routing.Options{}, Providers(h, expose)...)
	if err != nil {
		t.Fatalf("pinned and unchanged: %v", err)
	}
	// Mid-step change announced by notifications/tools/list_changed: echo becomes destructive.
	if res := r.CallTool(context.Background(), "fix_echo", json.RawMessage(`{"text":"a"}`)); res.IsError {
		t.Fatalf("echo before the change: %+v", res)
	}
	p := New(h, "fix", []string{"mutate", "echo"})
	if _, err := p.CallTool(context.Background(), "fix_mutate", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	var callErr error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if _, callErr = p.CallTool(context.Background(), "fix_echo", json.RawMessage(`{"text":"b"}`)); callErr != nil {
			break
		}
		time.Sleep(20 * time.Millisecond) // the server debounces list_changed by 10 ms
	}
	if fault.CodeOf(callErr) != fault.UserMCPProxyToolChanged || !strings.Contains(callErr.Error(), "annotations changed") {
		t.Errorf("after list_changed: %v", callErr)
	}
	r.Close()
	_ = h.Close()
	// Changed at start: description and annotations differ from the lock.
	t.Setenv("FLIP", "1")
	h = plugins.New(plugins.Options{Root: root, File: file})
	defer h.Close()
	_, err = routing.NewRouter(context.Background(), routing.Options{}, Providers(h, expose)...)
	if fault.CodeOf(err) != fault.UserMCPProxyToolChanged || !strings.Contains(err.Error(), `tool "echo": description changed`) ||
		!strings.Contains(err.Error(), `tool "get-env": annotations changed`) || !strings.Contains(err.Error(), "awf plugins lock") {
		t.Errorf("changed tools: %v", err)
	}
	locked, _, _ := h.ReadLock()
	now, err := h.Pins(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := pluginlock.Drift(locked, now); len(d) != 2 {
		t.Errorf("drift = %v", d)
	}
}

func TestMCPOverStreamableHTTP(t *testing.T) {
	bin := mcpFixture(t)
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("REMOTE_TOKEN", "tok")
	h := mcpHost(t, fmt.Sprintf("plugins:\n  remote: {type: mcp, url: \"http://%s/mcp\", headers: {Authorization: \"Bearer ${REMOTE_TOKEN}\"}}\n", strings.TrimSpace(addr)))
	p := New(h, "remote", []string{"*"})
	defs, err := p.ListTools(context.Background())
	if err != nil || len(defs) != 13 {
		t.Fatalf("tools = %v, %v", defs, err)
	}
	res, err := p.CallTool(context.Background(), "remote_echo", json.RawMessage(`{"text":"http"}`))
	if err != nil || res.JoinedText() != "echo: http" {
		t.Errorf("call = %+v, %v", res, err)
	}
	// Rich content and progress over Streamable HTTP too.
	res, err = p.CallTool(context.Background(), "remote_content", json.RawMessage(`{}`))
	if err != nil || len(res.Content) != 7 || res.Content[2].Type != "image" || !strings.Contains(string(res.Content[2].Raw), `"data":"iVBORw0KGgoA/`) || res.Structured == nil {
		t.Errorf("content over HTTP = %+v, %v", res, err)
	}
	var steps []tool.Progress
	ctx := tool.WithProgress(context.Background(), func(pr tool.Progress) { steps = append(steps, pr) })
	if _, err = p.CallTool(ctx, "remote_slow", json.RawMessage(`{"steps":2}`)); err != nil || len(steps) != 2 {
		t.Errorf("progress over HTTP = %+v, %v", steps, err)
	}
}
