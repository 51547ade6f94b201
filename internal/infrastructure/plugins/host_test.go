package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// fixture is a project with the example plugins declared, and a host over it.
type fixture struct {
	root, file string
	bins       map[string]string
	host       *Host
	logs       *observer.ObservedLogs
	// waiting receives a signal each time a slow echo call reaches the plugin's handler.
	waiting <-chan struct{}
}

func newFixture(t *testing.T, extra string, opts Options) *fixture {
	t.Helper()
	bins := plugintest.Build(t, "echo", "notes")
	manifest := fmt.Sprintf(`plugins:
  echo:
    command: %s
  notes:
    command: %s
    config: {dir: data/notes}
  off:
    command: %s
    disabled: true
%s`, bins["echo"], bins["notes"], bins["echo"], extra)
	root, file := plugintest.Project(t, manifest)
	core, logs := observer.New(zapcore.DebugLevel)
	hook, waiting := plugintest.OnLog(plugintest.EchoWaiting)
	opts.Root, opts.File, opts.Logger = root, file, zap.New(core, hook)
	h := New(opts)
	t.Cleanup(func() { _ = h.Close() })
	return &fixture{root: root, file: file, bins: bins, host: h, logs: logs, waiting: waiting}
}

func (f *fixture) exec(t *testing.T, plugin, op, args string) tool.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := f.host.Execute(ctx, plugin, op, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Execute(%s.%s, %s): %v", plugin, op, args, err)
	}
	return res
}

func (f *fixture) pid(t *testing.T, plugin string) int {
	t.Helper()
	st, err := f.host.Status(plugin)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != StateRunning || st.PID == 0 {
		t.Fatalf("plugin %s is %s (pid %d), want running", plugin, st.State, st.PID)
	}
	return st.PID
}

func TestHostStartsLazilyListsExecutesAndReuses(t *testing.T) {
	f := newFixture(t, "", Options{})
	ctx := context.Background()
	if st, _ := f.host.Status("echo"); st.State != StateNotStarted {
		t.Fatalf("echo is %s before any call, want %s", st.State, StateNotStarted)
	}
	if pids := plugintest.Processes(t, f.bins["echo"]); len(pids) != 0 {
		t.Fatalf("echo processes before any call: %v", pids)
	}
	decls, err := f.host.Plugins(ctx)
	if err != nil || len(decls) != 3 || decls[0].Name != "echo" || !decls[2].Disabled || decls[1].Pos.Line != 4 {
		t.Fatalf("Plugins = %+v, %v", decls, err)
	}

	ops, err := f.host.Operations(ctx, "echo")
	if err != nil {
		t.Fatalf("Operations: %v", err)
	}
	if len(ops) != 1 || ops[0].Name != "echo" || !ops[0].Annotations.ReadOnly() || ops[0].Annotations.Title != "Echo" ||
		!strings.Contains(string(ops[0].InputSchema), `"delay_ms"`) || ops[0].OutputDescription == "" {
		t.Fatalf("echo operations = %+v", ops)
	}
	pid := f.pid(t, "echo")
	if res := f.exec(t, "echo", "echo", `{"text":"hi","upper":true}`); res.IsError || res.JoinedText() != "HI" {
		t.Fatalf("echo = %+v", res)
	}
	if res := f.exec(t, "echo", "echo", `{"text":"again"}`); res.JoinedText() != "again" {
		t.Fatalf("echo = %+v", res)
	}
	if got := f.pid(t, "echo"); got != pid {
		t.Fatalf("second call ran in pid %d, first in %d: the process was not reused", got, pid)
	}
	if pids := plugintest.Processes(t, f.bins["echo"]); len(pids) != 1 {
		t.Fatalf("echo processes = %v, want exactly one", pids)
	}

	// notes: the three intents, persistence under the project root, and a plugin error.
	if res := f.exec(t, "notes", "put", `{"key":"todo/a","text":"ship it","tags":["work"],"meta":{"priority":"high"}}`); res.IsError {
		t.Fatalf("put = %+v", res)
	}
	res := f.exec(t, "notes", "get", `{"key":"todo/a"}`)
	var note struct{ Text, Priority string }
	if err := json.Unmarshal([]byte(res.JoinedText()), &note); err != nil || note.Text != "ship it" || note.Priority != "high" {
		t.Fatalf("get = %+v (%v)", res, err)
	}
	if _, err := os.Stat(filepath.Join(f.root, "data", "notes", "notes.json")); err != nil {
		t.Errorf("notes did not persist under the project root (plugins run there): %v", err)
	}
	if res := f.exec(t, "notes", "get", `{"key":"nope"}`); !res.IsError || !strings.Contains(res.JoinedText(), `no note with key "nope"`) {
		t.Errorf("get of a missing note = %+v, want an error result", res)
	}
	if res := f.exec(t, "notes", "delete", `{"key":"todo/a"}`); res.IsError {
		t.Errorf("delete = %+v", res)
	}

	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"echo", "notes"} {
		if pids := plugintest.Processes(t, f.bins[name]); len(pids) != 0 {
			t.Errorf("%s processes after Close: %v", name, pids)
		}
	}
	if z := plugintest.Zombies(t); len(z) != 0 {
		t.Errorf("zombies after Close: %v", z)
	}
	if st, _ := f.host.Status("echo"); st.State != StateStopped {
		t.Errorf("echo is %s after Close, want %s", st.State, StateStopped)
	}
	if _, err := f.host.Execute(ctx, "echo", "echo", json.RawMessage(`{"text":"x"}`)); fault.CodeOf(err) != fault.ExecutionPluginClosed {
		t.Errorf("Execute after Close = %v, want %s", err, fault.ExecutionPluginClosed)
	}
}

func TestHostConcurrentFirstCallsShareOneProcess(t *testing.T) {
	f := newFixture(t, "", Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := f.host.Execute(context.Background(), "echo", "echo", json.RawMessage(fmt.Sprintf(`{"text":"%d"}`, i)))
			if err == nil && res.JoinedText() != strconv.Itoa(i) {
				err = fmt.Errorf("call %d got %q", i, res.JoinedText())
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if pids := plugintest.Processes(t, f.bins["echo"]); len(pids) != 1 {
		t.Errorf("echo processes = %v, want one shared by all calls", pids)
	}
}

func TestHostNamesErrors(t *testing.T) {
	f := newFixture(t, "", Options{})
	ctx := context.Background()
	_, err := f.host.Operations(ctx, "ecoh")
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.UserMCPProxyUnknownPlugin || fe.Hint != "did you mean 'echo'?" || fault.ExitCode(err) != fault.ExitUser {
		t.Errorf("unknown plugin = %#v", err)
	}
	_, err = f.host.Execute(ctx, "off", "echo", nil)
	if !errors.As(err, &fe) || fe.Code != fault.UserMCPProxyPluginDisabled || fe.Pos.Line != 7 || !strings.Contains(fe.Hint, "disabled: true") {
		t.Errorf("disabled plugin = %#v", err)
	}
	if _, err := f.host.Status("zzz"); fault.CodeOf(err) != fault.UserMCPProxyUnknownPlugin {
		t.Errorf("Status of an unknown plugin = %v", err)
	}
	if st, _ := f.host.Status("off"); st.State != StateDisabled {
		t.Errorf("disabled plugin state = %s", st.State)
	}

	none := New(Options{Root: t.TempDir()})
	_, err = none.Operations(ctx, "echo")
	if !errors.As(err, &fe) || fe.Code != fault.UserMCPProxyUnknownPlugin || !strings.Contains(fe.Hint, "create") {
		t.Errorf("no plugins.yaml = %#v", err)
	}
	if decls, err := none.Plugins(ctx); err != nil || len(decls) != 0 {
		t.Errorf("Plugins without a file = %v, %v", decls, err)
	}
}

func TestHostForwardsPluginLogs(t *testing.T) {
	f := newFixture(t, "", Options{})
	if _, err := f.host.Operations(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	var opened, started bool
	for _, e := range f.logs.All() {
		fields := e.ContextMap()
		if fields["plugin"] != "notes" {
			continue
		}
		switch e.Message {
		case "notes store opened":
			opened = e.Level == zapcore.InfoLevel && fields["dir"] == "data/notes"
		case "plugin started":
			started = true
		}
	}
	if !opened || !started {
		t.Errorf("plugin log line forwarded = %v, start logged = %v; logs: %v", opened, started, f.logs.All())
	}
}
