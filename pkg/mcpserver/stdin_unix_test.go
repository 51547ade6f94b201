//go:build linux

package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	if os.Getenv(stdinChildEnv) != "" {
		testChild = serveStdioChild
	}
}

// stdinChildEnv makes the test binary, run again, serve echo on its stdin and stdout.
const stdinChildEnv = "AWF_MCPSERVER_STDIN_CHILD"

// serveStdioChild is the child of TestServeStdioOnAPipeAndASocket (see TestMain): it serves
// echo on its stdin and stdout, then reports on stderr.
func serveStdioChild() int {
	in, pollable := pollableStdin()
	if pollable {
		_ = in.Close()
	}
	srv := New(Options{Name: "child", Accelerators: AccelAll})
	if err := srv.AddTool(echo()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	err := srv.ServeStdio(context.Background())
	flags, _, _ := syscall.Syscall(syscall.SYS_FCNTL, 0, syscall.F_GETFL, 0)
	fmt.Fprintf(os.Stderr, "pollable=%v serve=%v fd0-nonblock=%v direct=%d\n", pollable, err, flags&syscall.O_NONBLOCK != 0, srv.directCalls())
	return 0
}

// TestServeStdioOnAPipeAndASocket serves a session over a real stdin of each kind agent CLIs
// give: a pipe (the stdin is read through the poller from a description of its own, the pipe's
// own flags untouched) and a socket (Node's child_process), and a terminal-less file (read as
// it is).
func TestServeStdioOnAPipeAndASocket(t *testing.T) {
	for _, kind := range []string{"pipe", "socket", "one-socket", "file"} {
		t.Run(kind, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), stdinChildEnv+"=1")
			stderr := &lockedBuffer{}
			cmd.Stderr = stderr
			var out io.Reader
			var err error
			if kind != "one-socket" {
				if out, err = cmd.StdoutPipe(); err != nil {
					t.Fatal(err)
				}
			}
			var in io.WriteCloser
			switch kind {
			case "pipe":
				if in, err = cmd.StdinPipe(); err != nil {
					t.Fatal(err)
				}
			case "socket":
				fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
				if err != nil {
					t.Fatal(err)
				}
				child := os.NewFile(uintptr(fds[1]), "child-end")
				defer child.Close()
				cmd.Stdin = child
				in = os.NewFile(uintptr(fds[0]), "parent-end")
			case "one-socket": // stdin and stdout are one socket
				fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
				if err != nil {
					t.Fatal(err)
				}
				child := os.NewFile(uintptr(fds[1]), "child-end")
				defer child.Close()
				cmd.Stdin, cmd.Stdout = child, child
				parent := os.NewFile(uintptr(fds[0]), "parent-end")
				in, out = halfCloser{parent}, parent
			case "file":
				script := legacyInit + "\n"
				f, err := os.CreateTemp(t.TempDir(), "stdin")
				if err != nil {
					t.Fatal(err)
				}
				_, _ = f.WriteString(script)
				_, _ = f.Seek(0, 0)
				defer f.Close()
				cmd.Stdin = f
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(out)
			if in != nil {
				_, _ = io.WriteString(in, legacyInit+"\n")
				if line, err := readLineWithin(r, 10*time.Second); err != nil || !strings.Contains(line, `"id":"init","result"`) {
					t.Fatalf("initialize: %q %v\n%s", line, err, stderr.String())
				}
				_, _ = io.WriteString(in, initialized+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`+"\n")
				if line, err := readLineWithin(r, 10*time.Second); err != nil || !strings.Contains(line, `"id":2,"result":{"content":[{"type":"text","text":"hi"}]}`) {
					t.Fatalf("call: %q %v\n%s", line, err, stderr.String())
				}
				_ = in.Close() // EOF ends the session
			} else {
				_, _ = io.Copy(io.Discard, r) // a file ends at once, maybe before any answer
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("child: %v\n%s", err, stderr.String())
			}
			want := map[string]string{
				"pipe":       "pollable=true serve=<nil> fd0-nonblock=false direct=1",
				"socket":     "pollable=true serve=<nil> fd0-nonblock=true direct=1",
				"one-socket": "pollable=false serve=<nil> fd0-nonblock=false direct=1",
				"file":       "pollable=false serve=<nil> fd0-nonblock=false direct=0",
			}[kind]
			if !strings.Contains(stderr.String(), want) {
				t.Fatalf("child reported\n%s\nwant %q", stderr.String(), want)
			}
		})
	}
}

// halfCloser closes only the writing half of a socket, so the answers can still be read.
type halfCloser struct{ f *os.File }

func (h halfCloser) Write(p []byte) (int, error) { return h.f.Write(p) }

func (h halfCloser) Close() error {
	return syscall.Shutdown(int(h.f.Fd()), syscall.SHUT_WR)
}
