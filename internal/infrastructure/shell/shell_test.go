package shell

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestRunCommand(t *testing.T) {
	tests := []struct {
		name       string
		cmd        string
		max        int
		wantOut    string
		wantErrOut string
		wantCode   int
	}{
		{"stdout", "echo hello", 0, "hello\n", "", 0},
		{"stderr and exit code kept", "echo oops >&2; exit 3", 0, "", "oops\n", 3},
		{"killed by signal", "kill -9 $$", 0, "", "", 137},
		{"capped", "head -c 100 /dev/zero | tr '\\0' a", 10, "aaaaaaaaaa\n[awf: output truncated, 90 more bytes not kept]", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Runner{MaxOutput: tc.max}.RunCommand(context.Background(), ports.CommandRequest{Command: tc.cmd})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != tc.wantOut || res.Stderr != tc.wantErrOut || res.ExitCode != tc.wantCode {
				t.Fatalf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.ExitCode, tc.wantOut, tc.wantErrOut, tc.wantCode)
			}
		})
	}
}

func TestRunCommandTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Runner{Grace: 100 * time.Millisecond}.RunCommand(ctx, ports.CommandRequest{Command: "echo started; sleep 30"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want deadline error, got %v", err)
	}
	if time.Since(start) > 5*time.Second || !strings.Contains(res.Stdout, "started") {
		t.Fatalf("took %s, stdout %q", time.Since(start), res.Stdout)
	}
}

func TestRunCommandBadDir(t *testing.T) {
	_, err := Runner{}.RunCommand(context.Background(), ports.CommandRequest{Command: "true", Dir: "/nonexistent/dir"})
	if err == nil || !strings.Contains(err.Error(), "EXECUTION.COMMAND.START") {
		t.Fatalf("want coded start error, got %v", err)
	}
}
