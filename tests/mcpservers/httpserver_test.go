package mcpservers

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// httpEverything is a server-everything running its Streamable HTTP transport on loopback, as
// a child of the test in its own process group, with a temp HOME and TMPDIR.
type httpEverything struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:<port>/mcp
	stdout *syncBuffer
	exited chan struct{}
}

// startEverythingHTTP starts `mcp-server-everything streamableHttp` on a free port (PORT, as
// its dist/transports/streamableHttp.js reads it) and waits for its "listening on port" line.
// A port taken between the probe and the server's bind is tried again with another.
func startEverythingHTTP(t *testing.T) *httpEverything {
	t.Helper()
	requireServers(t)
	var last string
	for range 3 {
		s, stderr := tryEverythingHTTP(t)
		if s != nil {
			return s
		}
		last = stderr
	}
	t.Fatalf("server-everything over Streamable HTTP did not start; its last stderr:\n%s", last)
	return nil
}

func tryEverythingHTTP(t *testing.T) (*httpEverything, string) {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(binDir+"/mcp-server-everything", "streamableHttp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "PORT=" + strconv.Itoa(port)}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s := &httpEverything{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), stdout: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout = s.stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting server-everything: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the whole group: npm shims may fork
		<-s.exited
	})
	ready := make(chan struct{})
	var seen strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "listening on port") {
				close(ready)
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		_ = cmd.Wait()
		close(s.exited)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	select {
	case <-ready:
		return s, ""
	case <-s.exited:
		return nil, seen.String()
	case <-ctx.Done():
		t.Fatalf("server-everything did not listen within 60s")
	}
	return nil, ""
}

// freePort asks the kernel for a loopback port that is free right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// alive reports whether the server process is still running.
func (s *httpEverything) alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}
