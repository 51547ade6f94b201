package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/testkit"
)

// fixtureServe starts `awf mcp-serve` bridging the fixture server as plugin "fix" (all its
// tools exposed), with extra plugin keys (call_timeout) and the client's options.
func fixtureServe(t testing.TB, pluginKeys string, opts *mcp.ClientOptions) (*server, string) {
	t.Helper()
	bin := plugintest.MCPFixture(t, t.TempDir())
	file := filepath.Join(t.TempDir(), ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n%s", bin, pluginKeys)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return startWith(t, map[string]any{
		"plugins_file": file,
		"plugin_tools": []map[string]any{{"plugin": "fix", "expose": []string{"*"}}},
	}, opts), bin
}

// direct connects the go-sdk client to the fixture itself, without awf in between.
func direct(t *testing.T, bin string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sess.Close() })
	return sess
}

func callRaw(t *testing.T, s *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestBridgedContentIsByteIdentical: every content type, structuredContent, _meta and isError
// arrive through awf exactly as the fixture sends them to a client that calls it directly; the
// activity record keeps each non-text block's type and size, and neither it nor the log holds
// a byte of the payload.
func TestBridgedContentIsByteIdentical(t *testing.T) {
	s, bin := fixtureServe(t, "", nil)
	d := direct(t, bin)
	for _, name := range []string{"content", "fail"} {
		want, got := callRaw(t, d, name, map[string]any{}), callRaw(t, s.session, "fix_"+name, map[string]any{})
		if len(got.Content) != len(want.Content) {
			t.Fatalf("%s: %d blocks through awf, %d direct", name, len(got.Content), len(want.Content))
		}
		for i := range want.Content {
			w, _ := json.Marshal(want.Content[i])
			g, _ := json.Marshal(got.Content[i])
			if !bytes.Equal(g, w) {
				t.Errorf("%s block %d through awf:\n%s\ndirect:\n%s", name, i, g, w)
			}
		}
		ws, _ := json.Marshal(want.StructuredContent)
		gs, _ := json.Marshal(got.StructuredContent)
		// The protocol's serverInfo names the peer that answered: awf, not the fixture.
		if info, _ := got.Meta["io.modelcontextprotocol/serverInfo"].(map[string]any); info["name"] != "awf" {
			t.Errorf("%s: serverInfo through awf = %v", name, got.Meta)
		}
		delete(want.Meta, "io.modelcontextprotocol/serverInfo")
		delete(got.Meta, "io.modelcontextprotocol/serverInfo")
		wm, _ := json.Marshal(want.Meta)
		gm, _ := json.Marshal(got.Meta)
		if !bytes.Equal(gs, ws) || !bytes.Equal(gm, wm) || got.IsError != want.IsError {
			t.Errorf("%s: structured %s / %s, meta %s / %s, isError %v / %v", name, gs, ws, gm, wm, got.IsError, want.IsError)
		}
	}
	res := callRaw(t, s.session, "fix_content", map[string]any{})
	img, ok := res.Content[2].(*mcp.ImageContent)
	wantImg := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0xff, 0xfe, 1, 2, 3}
	if !ok || !bytes.Equal(img.Data, wantImg) || img.MIMEType != "image/png" {
		t.Errorf("image block = %#v", res.Content[2])
	}
	if a, ok := res.Content[3].(*mcp.AudioContent); !ok || a.MIMEType != "audio/wav" || !bytes.HasPrefix(a.Data, []byte("RIFF")) {
		t.Errorf("audio block = %#v", res.Content[3])
	}
	if r, ok := res.Content[6].(*mcp.EmbeddedResource); !ok || !bytes.Equal(r.Resource.Blob, []byte{0, 1, 2, 253, 254, 255}) {
		t.Errorf("blob block = %#v", res.Content[6])
	}
	recs := s.records(t)
	sum, _ := json.Marshal(recs[0]["content"])
	if want := `[{"bytes":14,"mime_type":"image/png","type":"image"},{"bytes":18,"mime_type":"audio/wav","type":"audio"},` +
		`{"bytes":6,"mime_type":"text/plain","type":"resource_link","uri":"file:///fixture/readme.txt"},` +
		`{"bytes":13,"mime_type":"text/plain","type":"resource","uri":"fixture://text"},` +
		`{"bytes":6,"mime_type":"application/octet-stream","type":"resource","uri":"fixture://blob"},{"bytes":58,"type":"structured"}]`; string(sum) != want {
		t.Errorf("recorded content = %s\nwant %s", sum, want)
	}
	activity, _ := os.ReadFile(s.activity)
	logText, _ := os.ReadFile(s.log)
	for _, payload := range []string{"iVBORw", "AAEC/f7/", "UklGR"} { // base64 of the image, blob, audio
		if bytes.Contains(activity, []byte(payload)) || bytes.Contains(logText, []byte(payload)) {
			t.Errorf("payload %s written to the activity file or the log", payload)
		}
	}
	if recs[1]["outcome"] != "error" || !strings.Contains(fmt.Sprint(recs[1]["error"]), "it failed\n[image image/png, 14 bytes]") {
		t.Errorf("isError record = %v", recs[1])
	}
}

// TestBridgedProgressCancellationAndLogs: the client's progress token brings the fixture's
// progress back; a cancelled call is cancelled in the fixture; the fixture's log notification
// and stderr land in mcp-serve's log tagged with the plugin.
func TestBridgedProgressCancellationAndLogs(t *testing.T) {
	progress := make(chan *mcp.ProgressNotificationParams, 16)
	s, _ := fixtureServe(t, "", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		progress <- r.Params
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	params := &mcp.CallToolParams{Name: "fix_slow", Arguments: map[string]any{"steps": 3}}
	params.SetProgressToken("agent-token-1")
	if res, err := s.session.CallTool(ctx, params); err != nil || text(res) != "done after 3 steps" {
		t.Fatalf("slow: %v %v", res, err)
	}
	for i := 1; i <= 3; i++ {
		select {
		case p := <-progress:
			if p.ProgressToken != "agent-token-1" || p.Progress != float64(i) || p.Total != 3 || p.Message != fmt.Sprintf("step %d", i) {
				t.Errorf("progress %d = %+v", i, p)
			}
		case <-ctx.Done():
			t.Fatalf("progress %d never arrived", i)
		}
	}
	// Without a token the fixture is not asked for progress.
	if res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "fix_slow", Arguments: map[string]any{"steps": 2}}); err != nil || res.IsError {
		t.Fatalf("slow without token: %v %v", res, err)
	}
	select {
	case p := <-progress:
		t.Errorf("progress without a token: %+v", p)
	default:
	}

	fifo := testkit.FIFO(t)
	cctx, ccancel := context.WithCancel(ctx)
	params = &mcp.CallToolParams{Name: "fix_slow", Arguments: map[string]any{"steps": 1, "wait": true, "record": fifo}}
	params.SetProgressToken(7)
	errc := make(chan error, 1)
	go func() { _, err := s.session.CallTool(cctx, params); errc <- err }()
	select {
	case p := <-progress: // the call is running in the fixture
		if p.ProgressToken != 7.0 && p.ProgressToken != 7 {
			t.Errorf("numeric token came back as %#v", p.ProgressToken)
		}
	case <-ctx.Done():
		t.Fatal("the waiting call never started")
	}
	ccancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
	if got, err := testkit.ReadFIFO(fifo, 10*time.Second); err != nil || got != "cancelled" {
		t.Fatalf("the fixture never saw the cancellation: %q %v", got, err)
	}

	if out, isErr := s.call(t, "fix_log", map[string]any{"text": "marker-4711"}); isErr || out != "logged" {
		t.Fatalf("log: %s", out)
	}
	for _, want := range []string{"fixture log marker-4711", "fixture stderr marker-4711"} {
		if !testkit.Eventually(10*time.Second, func() bool { return logLineFor(t, s.log, want) != nil }) {
			b, _ := os.ReadFile(s.log)
			t.Fatalf("no line with %q in mcp-serve's log:\n%s", want, b)
		}
		if line := logLineFor(t, s.log, want); line["plugin"] != "fix" {
			t.Errorf("log line not tagged with the plugin: %v", line)
		}
	}
	if line := logLineFor(t, s.log, "fixture log marker-4711"); line["level"] != "warn" || line["mcp_level"] != "warning" || line["logger"] != "fixture" {
		t.Errorf("a warning log notification = %v", line)
	}
}

// logLineFor returns the first JSON line of the log whose text holds want.
func logLineFor(t *testing.T, path, want string) map[string]any {
	b, _ := os.ReadFile(path)
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(l, []byte(want)) {
			var m map[string]any
			if err := json.Unmarshal(l, &m); err != nil {
				t.Fatalf("log line %s: %v", l, err)
			}
			return m
		}
	}
	return nil
}

// TestBridgedCallTimeout: a call that outlives call_timeout answers with an error naming the
// plugin soon after the timeout and is cancelled in the fixture, which keeps serving; a server
// that freezes (answers nothing, not even a ping) is restarted for the next call.
func TestBridgedCallTimeout(t *testing.T) {
	s, bin := fixtureServe(t, "    call_timeout: 1s\n", nil)
	fifo := testkit.FIFO(t)
	start := time.Now()
	out, isErr := s.call(t, "fix_slow", map[string]any{"wait": true, "record": fifo})
	if took := time.Since(start); !isErr || !strings.Contains(out, `MCP plugin "fix"`) || !strings.Contains(out, "call_timeout (1s)") || took > 8*time.Second {
		t.Fatalf("hung call after %s: %v %s", took, isErr, out)
	}
	if got, err := testkit.ReadFIFO(fifo, 10*time.Second); err != nil || got != "cancelled" {
		t.Fatalf("the fixture never saw the timeout's cancellation: %q %v", got, err)
	}
	before := plugintest.Processes(t, bin)
	if out, isErr := s.call(t, "fix_echo", map[string]any{"text": "still here"}); isErr || out != "echo: still here" {
		t.Fatalf("after a timeout: %s", out)
	}
	if after := plugintest.Processes(t, bin); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a server that answers was restarted after a timeout: %v → %v", before, after)
	}
	start = time.Now()
	if out, isErr := s.call(t, "fix_freeze", map[string]any{}); !isErr || !strings.Contains(out, `"fix"`) || time.Since(start) > 10*time.Second {
		t.Fatalf("frozen server after %s: %s", time.Since(start), out)
	}
	if out, isErr := s.call(t, "fix_echo", map[string]any{"text": "restarted"}); isErr || out != "echo: restarted" {
		t.Fatalf("after a freeze the next call restarts the server: %s", out)
	}
	if !testkit.Eventually(10*time.Second, func() bool { return len(plugintest.Processes(t, bin)) == 1 }) {
		t.Errorf("the frozen server was not killed: %v", plugintest.Processes(t, bin))
	}
	recs := s.records(t)
	if recs[0]["code"] != "EXECUTION.PLUGIN.CALL_TIMEOUT" {
		t.Errorf("timeout record = %v", recs[0])
	}
}

// TestBridgedCrashAnswersInTime: a server that dies mid-call answers the agent within 10 s with
// an error naming the plugin, recorded as EXECUTION.PLUGIN.CRASHED with the server's last
// stderr line in the log; the next call starts it again.
func TestBridgedCrashAnswersInTime(t *testing.T) {
	s, _ := fixtureServe(t, "", nil)
	start := time.Now()
	out, isErr := s.call(t, "fix_crash", map[string]any{})
	if took := time.Since(start); !isErr || !strings.Contains(out, `MCP plugin "fix" exited`) || took > 10*time.Second {
		t.Fatalf("crash mid-call after %s: %v %s", took, isErr, out)
	}
	if out, isErr := s.call(t, "fix_echo", map[string]any{"text": "back"}); isErr || out != "echo: back" {
		t.Fatalf("after a crash: %s", out)
	}
	if recs := s.records(t); recs[0]["code"] != "EXECUTION.PLUGIN.CRASHED" {
		t.Errorf("crash record = %v", recs[0])
	}
	if line := logLineFor(t, s.log, "fixture: crashing on purpose"); line == nil || line["plugin"] != "fix" {
		t.Errorf("the server's stderr before the crash is not in the log: %v", line)
	}
}
