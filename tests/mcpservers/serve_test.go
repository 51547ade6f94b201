package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/tests/testkit"
)

// serveEverything starts the real `awf mcp-serve` bridging server-everything (stdio) and
// connects the official go-sdk client to it with opts; it returns that session, one connected
// straight to a server-everything of its own, and mcp-serve's activity file.
func serveEverything(t *testing.T, opts *mcp.ClientOptions, expose ...string) (viaAWF, direct *mcp.ClientSession, activity string, wire *syncBuffer) {
	t.Helper()
	requireServers(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	s := serveAWF(t, fmt.Sprintf("plugins:\n  everything:\n    type: mcp\n    command: %s/mcp-server-everything\n", binDir),
		map[string]any{"plugin_tools": []map[string]any{{"plugin": "everything", "expose": expose}}}, opts)
	return s.session, connect(t, &mcp.CommandTransport{Command: exec.Command(binDir + "/mcp-server-everything")}, nil), s.activity, s.wire
}

// requireServers skips the test when the servers from npm are not installed, or fails it when
// .ci/run installed them (AWF_REQUIRE_MCP_SERVERS=1) and they are still missing.
func requireServers(t *testing.T) {
	t.Helper()
	if installErr != nil {
		if os.Getenv("AWF_REQUIRE_MCP_SERVERS") == "1" {
			t.Fatalf("MCP servers from npm not installed, and .ci/run requires them: %v", installErr)
		}
		testkit.Skipf(t, "MCP servers from npm not installed: %v", installErr)
	}
}

// awfServe is one running `awf mcp-serve` with a go-sdk client connected to it.
type awfServe struct {
	session  *mcp.ClientSession
	cmd      *exec.Cmd // the mcp-serve process
	activity string    // its activity file
	log      string    // its log file
	root     string    // its root_dir, where .awf/plugins.yaml lives
	wire     *syncBuffer
}

// serveAWF writes plugins (the body of .awf/plugins.yaml) and an mcp-serve config of cfg over
// the defaults, starts the real `awf mcp-serve` and connects the go-sdk client with opts. The
// caller sets HOME and TMPDIR first; mcp-serve inherits them.
func serveAWF(t *testing.T, plugins string, cfg map[string]any, opts *mcp.ClientOptions) *awfServe {
	t.Helper()
	state := t.TempDir()
	file := filepath.Join(state, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &awfServe{activity: filepath.Join(state, "activity.jsonl"), log: filepath.Join(state, "serve.log"), root: state, wire: &syncBuffer{}}
	full := map[string]any{"root_dir": state, "activity_file": s.activity, "log_file": s.log, "run_id": "r", "step": "s", "plugins_file": file}
	for k, v := range cfg {
		full[k] = v
	}
	b, _ := json.Marshal(full)
	cfgPath := filepath.Join(state, "config.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(bins.AWF, "mcp-serve", "--config", cfgPath)
	s.session = connect(t, &mcp.LoggingTransport{Transport: &mcp.CommandTransport{Command: s.cmd}, Writer: s.wire}, opts)
	return s
}

// connect connects a go-sdk client over tr, closed at the end of the test.
func connect(t *testing.T, tr mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "awf-test", Version: "1"}, opts).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// records reads an activity file, one JSON object a line.
func records(t *testing.T, file string) []map[string]any { return testkit.JSONLines(t, file) }

// syncBuffer is a bytes.Buffer safe for the transport's logging goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lines returns the messages read from mcp-serve so far, in wire order.
func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range strings.Split(s.b.String(), "\n") {
		if strings.HasPrefix(l, "read: ") {
			out = append(out, l)
		}
	}
	return out
}

func callOn(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestEverythingContentThroughMCPServe: server-everything's image, annotated text and image,
// resource links, embedded text and blob resources and structuredContent reach a go-sdk client
// of `awf mcp-serve` as the same server sends them to a client of its own.
func TestEverythingContentThroughMCPServe(t *testing.T) {
	via, direct, activity, _ := serveEverything(t, nil, "get-*")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get-tiny-image", map[string]any{}},
		{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": true}},
		{"get-resource-links", map[string]any{"count": 4}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
	} {
		w, g := comparable(callOn(t, direct, c.tool, c.args)), comparable(callOn(t, via, "everything_"+c.tool, c.args))
		if !bytes.Equal(g, w) {
			t.Errorf("%s through awf:\n%s\ndirect:\n%s", c.tool, g, w)
		}
	}
	// Embedded resources carry a timestamp: compare them but for the time.
	for _, kind := range []string{"Text", "Blob"} {
		got := callOn(t, via, "everything_get-resource-reference", map[string]any{"resourceType": kind, "resourceId": 2})
		var res *mcp.ResourceContents
		for _, c := range got.Content {
			if e, ok := c.(*mcp.EmbeddedResource); ok {
				res = e.Resource
			}
		}
		switch {
		case res == nil:
			t.Errorf("%s reference: no embedded resource in %v", kind, got.Content)
		case kind == "Text" && (res.URI != "demo://resource/dynamic/text/2" || !strings.HasPrefix(res.Text, "Resource 2: This is a plaintext resource created at")):
			t.Errorf("text resource = %+v", res)
		case kind == "Blob" && (res.URI != "demo://resource/dynamic/blob/2" || !strings.HasPrefix(string(res.Blob), "Resource 2: This is a base64 blob created at")):
			t.Errorf("blob resource = %+v (blob %q)", res, res.Blob)
		}
	}
	b, _ := os.ReadFile(activity)
	if !bytes.Contains(b, []byte(`"content":[{"type":"image","mime_type":"image/png","bytes":`)) || bytes.Contains(b, []byte("iVBORw0KGgo")) {
		t.Errorf("activity file: the image is not summarised, or its bytes were written:\n%.2000s", b)
	}
}

// TestEverythingProgressThroughMCPServe: trigger-long-running-operation's progress comes back
// to a client of `awf mcp-serve` under the client's token, before the result.
func TestEverythingProgressThroughMCPServe(t *testing.T) {
	progress := make(chan *mcp.ProgressNotificationParams, 16)
	via, _, _, wire := serveEverything(t, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		progress <- r.Params
	}}, "trigger-long-running-operation")
	checkProgress(t, via, wire, progress, "agent-progress")
}

// checkProgress calls everything's trigger-long-running-operation through awf (session via,
// whose wire is logged to wire) for three steps under token: the three progress notifications
// reach the client's handler (which sends them on progress) in order, and on the wire every one
// comes before the result.
func checkProgress(t *testing.T, via *mcp.ClientSession, wire *syncBuffer, progress <-chan *mcp.ProgressNotificationParams, token string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	params := &mcp.CallToolParams{Name: "everything_trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}}
	params.SetProgressToken(token)
	mark := len(wire.lines())
	res, err := via.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("long-running operation: %v %v", res, err)
	}
	for i := 1; i <= 3; i++ {
		select {
		case p := <-progress:
			if p.ProgressToken != token || p.Progress != float64(i) || p.Total != 3 {
				t.Errorf("progress %d = %+v", i, p)
			}
		case <-ctx.Done():
			t.Fatalf("progress %d never arrived", i)
		}
	}
	var order []string
	for _, l := range wire.lines()[mark:] {
		switch {
		case strings.Contains(l, `"notifications/progress"`):
			order = append(order, "progress")
		case strings.Contains(l, "Long running operation completed"):
			order = append(order, "result")
		}
	}
	if strings.Join(order, ",") != "progress,progress,progress,result" {
		t.Errorf("wire order = %v", order)
	}
}
