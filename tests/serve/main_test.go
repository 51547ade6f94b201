// Package serve_test starts the real `awf serve` on a free loopback port and drives it as the
// reference awf's clients do: runs started, followed, cancelled and resumed through the API,
// compared with the run's own files; the OpenAPI document; the token; the live page.
package serve_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

var bins *testkit.Bins

func TestMain(m *testing.M) { testkit.Main(m.Run, false, &bins) }

// server is one `awf serve` of a project of its own.
type server struct {
	base, root, token string
	cmd               *exec.Cmd
}

// project makes a temp project with the workflows given by name.
func project(t *testing.T, workflows map[string]string) string {
	root := t.TempDir()
	dir := filepath.Join(root, ".awf", "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range workflows {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// env is the child's environment: a temp HOME and TMPDIR.
func env(t *testing.T) []string {
	home, tmp := t.TempDir(), t.TempDir()
	return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp)
}

// start runs awf serve in root with args and waits for its address.
func start(t *testing.T, root string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bins.AWF, append([]string{"serve", "--port", "0"}, args...)...)
	cmd.Dir, cmd.Env = root, env(t)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{root: root, cmd: cmd}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("awf serve did not stop within 10 s of SIGTERM")
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no address from awf serve: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "awf serve: listening on ")
	if !ok {
		t.Fatalf("unexpected first line %q", line)
	}
	s.base = addr
	return s
}

// do sends a request and returns the status and body.
func (s *server) do(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// decode unmarshals data into v or fails.
func decode(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

// sse is one server-sent event.
type sse struct {
	Type string
	Data map[string]any
}

// events reads a run's event stream to its end.
func (s *server) events(t *testing.T, id string) []sse {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base+"/api/executions/"+id+"/events", nil)
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	client := &http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	var out []sse
	var cur sse
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			decode(t, []byte(strings.TrimPrefix(line, "data: ")), &cur.Data)
		case line == "" && cur.Type != "":
			out = append(out, cur)
			cur = sse{}
		}
	}
	return out
}
