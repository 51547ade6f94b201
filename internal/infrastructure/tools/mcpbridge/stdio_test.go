package mcpbridge

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// Lines longer than the reader's buffer, blank lines, CRLF and a banner that is not JSON: the
// messages come out whole and in order, the banner is logged and skipped, EOF ends the reads.
func TestStdioConnRead(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 100) + `"}}`
	in := "npx: installed 1 package\n\n" +
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\r\n" +
		long + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{}}` // no final newline
	core, logs := observer.New(zap.WarnLevel)
	c := &stdioConn{t: &stdioTransport{log: zap.New(core)}, r: bufio.NewReaderSize(strings.NewReader(in), 16)}
	var got []string
	for {
		msg, err := c.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			got = append(got, fmt.Sprintf("response %v", m.ID.Raw()))
		case *jsonrpc.Request:
			got = append(got, fmt.Sprintf("%s %d", m.Method, len(m.Params)))
		}
	}
	want := []string{"response 1", "notifications/message 111", "response 2"}
	if len(got) != len(want) {
		t.Fatalf("messages = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %q, want %s", i, got[i], want[i])
		}
	}
	if e := logs.All(); len(e) != 1 || !strings.Contains(e[0].ContextMap()["line"].(string), "npx: installed") {
		t.Errorf("log = %+v", e)
	}
}

func TestStdioConnRefusesAHugeLine(t *testing.T) {
	c := &stdioConn{t: &stdioTransport{log: zap.NewNop()}, r: bufio.NewReaderSize(io.MultiReader(strings.NewReader("{"), endless{}), 1<<16)}
	if _, err := c.Read(context.Background()); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a line without end: %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// Close: a server that ignores its closed stdin gets SIGTERM; one that ignores SIGTERM too is
// killed. Either way Close returns once the process is gone.
func TestStdioConnCloseEscalates(t *testing.T) {
	for name, script := range map[string]string{
		"SIGTERM": "exec sleep 300",
		"SIGKILL": `trap "" TERM; while :; do sleep 0.05; done`,
	} {
		t.Run(name, func(t *testing.T) {
			tr := &stdioTransport{cmd: exec.Command("sh", "-c", script), log: zap.NewNop(), terminate: 100 * time.Millisecond}
			conn, err := tr.Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			conn.(*stdioConn).started.Store(true)
			start := time.Now()
			_ = conn.Close()
			_ = conn.Close() // twice is fine
			if tr.cmd.ProcessState == nil || time.Since(start) > 5*time.Second {
				t.Errorf("after Close: state %v, %s", tr.cmd.ProcessState, time.Since(start))
			}
			if conn.SessionID() != "" {
				t.Error("stdio has a session id")
			}
		})
	}
}

// Close of a server whose start failed does not wait: the tree is killed at once (kill gets the
// server's pid), where a started server that ignores stdin EOF and SIGTERM gets both waits.
func TestStdioConnCloseAfterAFailedStartKillsAtOnce(t *testing.T) {
	const terminate = 700 * time.Millisecond
	for _, tc := range []struct {
		name        string
		started     bool
		killed      bool
		least, most time.Duration
	}{
		{name: "start failed", started: false, killed: true, most: terminate / 2},
		{name: "started", started: true, killed: false, least: 2 * terminate, most: 10 * terminate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var killed []int
			tr := &stdioTransport{cmd: exec.Command("sh", "-c", `trap "" TERM; while :; do sleep 0.05; done`), log: zap.NewNop(), terminate: terminate,
				kill: func(pid int) { killed = append(killed, pid) }}
			conn, err := tr.Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			conn.(*stdioConn).started.Store(tc.started)
			start := time.Now()
			_ = conn.Close()
			took := time.Since(start)
			if tr.cmd.ProcessState == nil || took < tc.least || took > tc.most {
				t.Errorf("Close took %v (want %v to %v), state %v", took, tc.least, tc.most, tr.cmd.ProcessState)
			}
			if got := len(killed) == 1 && killed[0] == tr.cmd.Process.Pid; got != tc.killed {
				t.Errorf("kill called with %v for pid %d; want called: %v", killed, tr.cmd.Process.Pid, tc.killed)
			}
		})
	}
}
