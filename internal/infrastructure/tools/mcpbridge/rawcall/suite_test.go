package rawcall

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
)

// modes are the two paths of a bridged call: the go-sdk's client alone (the reference), and
// with this accelerator. The suite runs on both and compares what they answer.
var modes = []struct {
	name  string
	accel bool
}{{"sdk-only", false}, {"raw", true}}

// fixtureServer bridges the fixture MCP server, with or without the accelerator; made is
// the accelerator of the last connection.
func fixtureServer(t *testing.T, bin string, withAccel bool, callTimeout time.Duration) (*mcpbridge.Server, func() *calls) {
	t.Helper()
	var (
		mu   sync.Mutex
		last *calls
	)
	cfg := mcpbridge.Config{
		Name: "fx", What: bin, StartupTimeout: 30 * time.Second, CallTimeout: callTimeout, MaxCrashes: 3,
		Launch: func() (mcpbridge.Launch, error) { return mcpbridge.Launch{Cmd: exec.Command(bin)}, nil },
	}
	if withAccel {
		cfg.Accelerator = func(write func([]byte) error) mcpbridge.Accelerator {
			c := New(write).(*calls)
			mu.Lock()
			last = c
			mu.Unlock()
			return c
		}
	}
	s := mcpbridge.New(cfg)
	t.Cleanup(s.Stop)
	return s, func() *calls { mu.Lock(); defer mu.Unlock(); return last }
}

func execute(t *testing.T, s *mcpbridge.Server, name, args string) (tool.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.Execute(ctx, name, json.RawMessage(args))
}

// The same calls give the same results on both paths: text, every content block with
// structuredContent and _meta, an isError result, a big text.
func TestBothPathsAnswerAlike(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	calls := []struct{ name, args string }{{"echo", `{"text":"x"}`}, {"content", `{}`}, {"fail", `{}`}, {"big", `{"bytes":200000}`}}
	got := map[string][]tool.Result{}
	for _, m := range modes {
		s, made := fixtureServer(t, bin, m.accel, time.Minute)
		for _, c := range calls {
			res, err := execute(t, s, c.name, c.args)
			if err != nil {
				t.Fatalf("%s: %s: %v", m.name, c.name, err)
			}
			got[m.name] = append(got[m.name], res)
		}
		if c := made(); m.accel && (c == nil || c.next.Load() != uint64(len(calls))) {
			t.Fatalf("the calls did not go the raw way (%v)", c)
		}
	}
	for i, c := range calls {
		a, b := got["sdk-only"][i], got["raw"][i]
		if !sameResult(a, b) {
			t.Errorf("%s: sdk-only %+v\nraw %+v", c.name, a, b)
		}
	}
}

func sameResult(a, b tool.Result) bool {
	if a.IsError != b.IsError || len(a.Content) != len(b.Content) || !sameJSON(a.Structured, b.Structured) || !sameJSON(a.Meta, b.Meta) {
		return false
	}
	for j := range a.Content {
		g, w := a.Content[j], b.Content[j]
		if g.Type != w.Type || g.Text != w.Text || (g.Raw == nil) != (w.Raw == nil) || !sameJSON(g.Raw, w.Raw) {
			return false
		}
	}
	return true
}

// Failures on both paths: a JSON-RPC error keeps the server; progress reaches the caller
// before the result; a cancelled call and a timed-out one are told upstream and keep a server
// that still answers; a crash fails the call and the next call starts the server again.
func TestBothPathsFailAlike(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			s, _ := fixtureServer(t, bin, m.accel, 2*time.Second)
			checkRefusedKeepsServer(t, s)
			checkProgress(t, s)
			checkCancelAndTimeout(t, s)
			checkCrashRestarts(t, s)
		})
	}
}

func checkRefusedKeepsServer(t *testing.T, s *mcpbridge.Server) {
	t.Helper()
	if res, err := execute(t, s, "echo", `{"text":"raw"}`); err != nil || res.JoinedText() != "echo: raw" {
		t.Fatalf("echo = %+v %v", res, err)
	}
	before := s.Snapshot().PID
	_, err := execute(t, s, "no-such-tool", `{}`)
	if fault.CodeOf(err) != fault.ExecutionPluginCallFailed || !strings.Contains(err.Error(), "refused the call to no-such-tool") {
		t.Fatalf("unknown tool: %v", err)
	}
	if res, err := execute(t, s, "echo", `{"text":"again"}`); err != nil || res.JoinedText() != "echo: again" {
		t.Fatalf("echo after a refused call = %+v %v", res, err)
	}
	if after := s.Snapshot().PID; after != before || after == 0 {
		t.Errorf("the server was restarted after a JSON-RPC error: pid %d, then %d", before, after)
	}
}

func checkProgress(t *testing.T, s *mcpbridge.Server) {
	t.Helper()
	var got []tool.Progress
	ctx := tool.WithProgress(context.Background(), func(p tool.Progress) { got = append(got, p) })
	res, err := s.Execute(ctx, "slow", json.RawMessage(`{"steps":3}`))
	if err != nil || res.JoinedText() != "done after 3 steps" || len(got) != 3 || got[2].Message != "step 3" {
		t.Fatalf("progress %+v, result %+v %v", got, res, err)
	}
}

func checkCancelAndTimeout(t *testing.T, s *mcpbridge.Server) {
	t.Helper()
	pid := s.Snapshot().PID
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, err := s.Execute(ctx, "slow", json.RawMessage(`{"wait":true}`))
	cancel()
	if fault.CodeOf(err) != fault.ExecutionToolCancelled {
		t.Fatalf("cancelled call: %v", err)
	}
	if _, err := execute(t, s, "slow", `{"wait":true}`); fault.CodeOf(err) != fault.ExecutionPluginCallTimeout {
		t.Fatalf("call past call_timeout: %v", err)
	}
	if res, err := execute(t, s, "echo", `{"text":"still"}`); err != nil || res.JoinedText() != "echo: still" || s.Snapshot().PID != pid {
		t.Fatalf("after a cancel and a timeout: %+v %v, pid %d then %d", res, err, pid, s.Snapshot().PID)
	}
}

func checkCrashRestarts(t *testing.T, s *mcpbridge.Server) {
	t.Helper()
	if _, err := execute(t, s, "crash", `{}`); fault.CodeOf(err) != fault.ExecutionPluginCrashed {
		t.Fatalf("crash: %v", err)
	}
	if res, err := execute(t, s, "echo", `{"text":"back"}`); err != nil || res.JoinedText() != "echo: back" {
		t.Fatalf("after a crash: %+v %v", res, err)
	}
}
