// Package mcpserve_test drives the real `awf mcp-serve` binary with the official go-sdk MCP
// client, as an agent CLI would: spawn, initialize, list, call.
package mcpserve_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	bins *testkit.Bins
	// serveBin is what agent CLIs spawn for a step: the slim awf-serve, which hands a config
	// with plugin tools to awf beside it. awfBin is awf itself.
	awfBin, serveBin, pluginDir string
)

func TestMain(m *testing.M) {
	testkit.Main(func() int {
		awfBin, serveBin, pluginDir = bins.AWF, bins.Serve, bins.Plugins
		return m.Run()
	}, true, &bins)
}

// server is one running `awf-serve mcp-serve` (or, for a config with plugin tools, the awf it
// execs) with its root and activity file.
type server struct {
	log      string // mcp-serve's log file (JSON lines, debug level and above)
	root     string
	activity string
	ready    string
	session  *mcp.ClientSession
	cmd      *exec.Cmd
}

// start writes a config (extra keys merged over the defaults) and connects a go-sdk client.
func start(t *testing.T, extra map[string]any) *server {
	t.Helper()
	return startWith(t, extra, nil)
}

// startWith is start with the client's options (progress and log handlers).
func startWith(t testing.TB, extra map[string]any, opts *mcp.ClientOptions) *server {
	t.Helper()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	state := t.TempDir()
	s, cfgPath := newServer(t, root, state, extra, 0o600)
	s.cmd = exec.Command(serveBin, "mcp-serve", "--config", cfgPath)
	s.cmd.Stderr = os.Stderr
	s.connect(t, opts)
	return s
}

// connect starts s.cmd under a go-sdk client with opts and closes the session when t ends.
func (s *server) connect(t testing.TB, opts *mcp.ClientOptions) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "awf-test", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: s.cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	s.session = sess
	t.Cleanup(func() { _ = sess.Close() })
}

// call invokes a tool and returns its joined text and error flag.
func (s *server) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", name, err)
	}
	return text(res), res.IsError
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *server) write(t *testing.T, rel, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(s.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// records reads the activity file.
func (s *server) records(t *testing.T) []map[string]any { return testkit.JSONLines(t, s.activity) }

// newServer is a server over root whose records go to state, and the path of its config (the
// test's extra keys over the defaults), written with perm.
func newServer(t testing.TB, root, state string, extra map[string]any, perm os.FileMode) (*server, string) {
	t.Helper()
	s := &server{root: root, activity: filepath.Join(state, "activity.jsonl"), ready: filepath.Join(state, "ready.json"), log: filepath.Join(state, "serve.log")}
	cfg := map[string]any{
		"root_dir": root, "activity_file": s.activity, "ready_file": s.ready,
		"log_file": s.log, "run_id": "run-test", "step": "step-test",
	}
	for k, v := range extra {
		cfg[k] = v
	}
	cfgPath := filepath.Join(state, "config.json")
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(cfgPath, b, perm); err != nil {
		t.Fatal(err)
	}
	return s, cfgPath
}
