package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/tests/testkit"
)

// wireTap is a loopback reverse proxy in front of the HTTP server that records what awf sends
// it: each request's headers and JSON-RPC methods.
type wireTap struct {
	url string
	mu  sync.Mutex
	log []tapped
}

type tapped struct {
	method string // HTTP method
	token  string // the X-Awf-Test-Token header
	body   string
}

func startTap(t *testing.T, upstream string) *wireTap {
	t.Helper()
	target, _ := url.Parse(upstream)
	target.Path = ""
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1 // SSE: every event as it comes
	tap := &wireTap{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		tap.mu.Lock()
		tap.log = append(tap.log, tapped{method: r.Method, token: r.Header.Get("X-Awf-Test-Token"), body: string(body)})
		tap.mu.Unlock()
		proxy.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	tap.url = "http://" + l.Addr().String() + "/mcp"
	return tap
}

func (w *wireTap) requests() []tapped {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]tapped(nil), w.log...)
}

// TestEverythingHTTPHeadersAndCancelOnTheWire: every request awf sends the HTTP server carries
// the declared header with ${VAR} expanded from awf's environment, and a call the client
// cancels is cancelled upstream (notifications/cancelled for that request id); a header whose
// variable is unset fails the plugin naming the variable.
func TestEverythingHTTPHeadersAndCancelOnTheWire(t *testing.T) {
	srv := startEverythingHTTP(t)
	tap := startTap(t, srv.url)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("AWF_TEST_HTTP_TOKEN", "tok-from-env")
	progress := make(chan struct{}, 1)
	s := serveAWF(t, httpPlugins(tap.url), map[string]any{"plugin_tools": []map[string]any{{"plugin": "everything", "expose": []string{"echo", "trigger-*"}}}},
		&mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- struct{}{}:
			default:
			}
		}})
	if res := callOn(t, s.session, "everything_echo", map[string]any{"message": "tapped"}); res.IsError {
		t.Fatalf("echo: %s", joined(res))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cctx, ccancel := context.WithCancel(ctx)
	params := &mcp.CallToolParams{Name: "everything_trigger-long-running-operation", Arguments: map[string]any{"duration": 60, "steps": 600}}
	params.SetProgressToken("t")
	errc := make(chan error, 1)
	go func() { _, err := s.session.CallTool(cctx, params); errc <- err }()
	select {
	case <-progress:
	case <-ctx.Done():
		t.Fatal("the long call never reported progress")
	}
	ccancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The request id awf gave the long call upstream, and a notifications/cancelled naming it.
	var callID json.RawMessage
	cancelled := func() bool {
		for _, r := range tap.requests() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name      string          `json:"name"`
					RequestID json.RawMessage `json:"requestId"`
				} `json:"params"`
			}
			if json.Unmarshal([]byte(r.body), &m) != nil {
				continue
			}
			if m.Method == "tools/call" && m.Params.Name == "trigger-long-running-operation" {
				callID = m.ID
			}
			if m.Method == "notifications/cancelled" && callID != nil && bytes.Equal(m.Params.RequestID, callID) {
				return true
			}
		}
		return false
	}
	if !testkit.Eventually(10*time.Second, cancelled) {
		t.Errorf("no notifications/cancelled for the long call (id %s) reached the server", callID)
	}
	reqs := tap.requests()
	if len(reqs) < 4 {
		t.Fatalf("only %d requests reached the server", len(reqs))
	}
	for _, r := range reqs {
		if r.token != "Bearer tok-from-env" {
			t.Errorf("%s %.80s: header X-Awf-Test-Token = %q", r.method, r.body, r.token)
		}
	}

	// The same declaration with the variable unset: the plugin fails, naming it.
	cmd := exec.Command(bins.AWF, "plugins", "list", "--root", s.root)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWF_TEST_HTTP_TOKEN=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "AWF_TEST_HTTP_TOKEN") {
		t.Errorf("plugins list with the header's variable unset: %v\n%s", err, out)
	}
}
