package mcpserve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestUnknownToolIsAnError(t *testing.T) {
	s := start(t, nil)
	res, err := s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "Delete", Arguments: map[string]any{}})
	if err == nil && (res == nil || !res.IsError) {
		t.Fatalf("unknown tool accepted: %+v", res)
	}
	// The server keeps serving.
	if _, isErr := s.call(t, "Glob", map[string]any{"pattern": "*"}); isErr {
		t.Fatal("server broken after unknown tool")
	}
}

// rawServer speaks newline-delimited JSON-RPC to mcp-serve directly, to send what no SDK would.
type rawServer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startRaw(t *testing.T) *rawServer {
	t.Helper()
	// The sandbox is off: these tests watch Bash's processes from outside, by host pid.
	cmd := exec.Command(awfBin, "mcp-serve", "--config", writeConfig(t, map[string]any{"root_dir": t.TempDir(), "sandbox": map[string]any{"mode": "off"}}))
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	return &rawServer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func writeConfig(t *testing.T, cfg map[string]any) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (r *rawServer) send(t *testing.T, line string) map[string]any {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	done := make(chan map[string]any, 1)
	go func() {
		l, err := r.out.ReadString('\n')
		var m map[string]any
		if err == nil {
			_ = json.Unmarshal([]byte(l), &m)
		}
		done <- m
	}()
	select {
	case m := <-done:
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer to %q", line)
		return nil
	}
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	f, _ := e["code"].(float64)
	return int(f)
}

func TestMalformedJSONRPCKeepsServing(t *testing.T) {
	r := startRaw(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	if m := r.send(t, init); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	if _, err := io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string
		code int
	}{
		{"this is not json", -32700},
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700},
		{`[1,2,3]`, -32600},
		{`{"jsonrpc":"1.0","id":3,"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`, -32601},
	}
	for _, tc := range tests {
		if m := r.send(t, tc.line); errCode(m) != tc.code {
			t.Errorf("%q → %v, want code %d", tc.line, m, tc.code)
		}
	}
	m := r.send(t, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	res, _ := m["result"].(map[string]any)
	if tl, _ := res["tools"].([]any); len(tl) != 6 {
		t.Fatalf("tools/list after garbage: %v", m)
	}
	// Huge arguments are handled, not fatal.
	huge := strings.Repeat("x", 4<<20)
	m = r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":%q}}}`, huge))
	if m["result"] == nil && m["error"] == nil {
		t.Fatalf("no answer to huge call: %v", m)
	}
	if m := r.send(t, `{"jsonrpc":"2.0","id":11,"method":"tools/list"}`); m["result"] == nil {
		t.Fatalf("server stopped after huge call: %v", m)
	}
}

// TestEOFWithCallInFlight closes stdin during a long Bash call: the server must exit promptly
// and take the command's process group with it.
func TestEOFWithCallInFlight(t *testing.T) {
	r := startRaw(t)
	pidFIFO := testkit.FIFO(t)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	_, _ = io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Bash","arguments":{"command":"sleep 1000 & echo $! > %s; wait"}}}`, pidFIFO)
	_, _ = io.WriteString(r.in, call+"\n")
	line, err := testkit.ReadFIFO(pidFIFO, 10*time.Second)
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid == 0 {
		t.Fatalf("bash never started: %q, %v", line, err)
	}
	_ = r.in.Close()
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = r.cmd.Process.Kill()
		t.Fatal("mcp-serve did not exit on stdin EOF with a call in flight")
	}
	// The command's process is no child of ours: watching the process table is all there is.
	if !testkit.Eventually(3*time.Second, func() bool { return !procAlive(pid) }) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("bash child %d survived mcp-serve", pid)
	}
}

func procAlive(pid int) bool { return testkit.Alive(pid) }

func TestBadConfigExitsOne(t *testing.T) {
	for name, body := range map[string]string{
		"unknown key": `{"root":"/tmp"}`,
		"not json":    `root_dir: /tmp`,
		"relative":    `{"root_dir":"tmp"}`,
	} {
		for _, bin := range []string{awfBin, serveBin} {
			t.Run(name+" "+filepath.Base(bin), func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "c.json")
				_ = os.WriteFile(p, []byte(body), 0o600)
				cmd := exec.Command(bin, "mcp-serve", "--config", p)
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				ee, ok := err.(*exec.ExitError)
				if !ok || ee.ExitCode() != 1 {
					t.Fatalf("exit %v, want 1; stderr %s", err, stderr.String())
				}
				if stdout.Len() != 0 || !strings.Contains(stderr.String(), "USER.MCP_SERVE.CONFIG") {
					t.Fatalf("stdout %q stderr %q", stdout.String(), stderr.String())
				}
			})
		}
	}
}

// TestConcurrentClients runs 8 clients against 8 servers in parallel, each calling tools in
// parallel, and checks every answer is its own.
func TestConcurrentClients(t *testing.T) {
	var wg sync.WaitGroup
	for c := 0; c < 8; c++ {
		s := start(t, nil)
		wg.Add(1)
		go func(c int, s *server) {
			defer wg.Done()
			var inner sync.WaitGroup
			for i := 0; i < 8; i++ {
				inner.Add(1)
				go func(i int) {
					defer inner.Done()
					want := fmt.Sprintf("client-%d-call-%d", c, i)
					p := filepath.Join(s.root, want+".txt")
					if err := os.WriteFile(p, []byte(want+"\n"), 0o644); err != nil {
						t.Error(err)
						return
					}
					res, err := s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": p}})
					if err != nil || res.IsError || !strings.Contains(text(res), want) {
						t.Errorf("%s: err=%v res=%v", want, err, res)
					}
				}(i)
			}
			inner.Wait()
		}(c, s)
	}
	wg.Wait()
}
