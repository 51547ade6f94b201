package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// sh runs a shell snippet as the "CLI".
func sh(script string, env ...string) Command {
	return Command{Provider: "fake", Path: "/bin/sh", Args: []string{"-c", script}, Env: append(os.Environ(), env...)}
}

// alive tells a live process from a zombie or a reaped one.
func alive(pid int) bool {
	st, ok := readStat(pid)
	return ok && st.live()
}

func waitPidfile(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
	}
	t.Fatal("the background child never started")
	return 0
}

func assertGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("process %d survived the run", pid)
	}
}

func TestRunCapturesOutputAndExitCode(t *testing.T) {
	tests := []struct {
		name       string
		script     string
		cfg        Config
		wantExit   int
		wantOut    string
		wantTrunc  bool
		wantErrEnd string
	}{
		{name: "success", script: `printf '{"ok":true}'; echo warn >&2`, wantOut: `{"ok":true}`, wantErrEnd: "warn\n"},
		{name: "exit status", script: `echo out; echo boom >&2; exit 7`, wantExit: 7, wantOut: "out\n", wantErrEnd: "boom\n"},
		{name: "stdin is /dev/null", script: `cat; echo after-eof`, wantOut: "after-eof\n"},
		{name: "killed by a signal", script: `kill -9 $$`, wantExit: 128 + 9},
		{name: "stdout bounded", script: `printf 0123456789abcdef`, cfg: Config{MaxStdout: 10}, wantOut: "0123456789", wantTrunc: true},
		{name: "stderr keeps its end", script: `printf 'early-noise-final-reason' >&2`, cfg: Config{MaxStderr: 12}, wantErrEnd: "final-reason"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Linger = 50 * time.Millisecond
			res, err := tc.cfg.Run(context.Background(), sh(tc.script))
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != tc.wantExit || string(res.Stdout) != tc.wantOut || res.StdoutTruncated != tc.wantTrunc {
				t.Errorf("got exit %d stdout %q truncated %v", res.ExitCode, res.Stdout, res.StdoutTruncated)
			}
			if !strings.HasSuffix(res.Stderr, tc.wantErrEnd) || (tc.cfg.MaxStderr > 0 && len(res.Stderr) > tc.cfg.MaxStderr) {
				t.Errorf("stderr %q, want it to end with %q", res.Stderr, tc.wantErrEnd)
			}
		})
	}
}

func TestRunStopsTheWholeGroupWhenCtxEnds(t *testing.T) {
	tests := []struct {
		name     string
		stubborn bool
		timeout  time.Duration // 0: cancelled by hand once the group runs (Ctrl+C)
		want     error
	}{
		{name: "ctrl-c, polite group", want: context.Canceled},
		{name: "ctrl-c, group ignores SIGTERM", stubborn: true, want: context.Canceled},
		{name: "step timeout", timeout: 300 * time.Millisecond, want: context.DeadlineExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			script := `sleep 1000 & echo $! > "$PIDFILE"; wait`
			if tc.stubborn {
				script = `trap "" TERM; sleep 1000 & echo $! > "$PIDFILE"; while :; do sleep 0.05; done`
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.timeout > 0 {
				ctx, cancel = context.WithTimeout(context.Background(), tc.timeout)
			}
			defer cancel()
			cfg := Config{Grace: 200 * time.Millisecond, Linger: 50 * time.Millisecond}
			errc := make(chan error, 1)
			go func() {
				_, err := cfg.Run(ctx, sh(script, "PIDFILE="+pidfile))
				errc <- err
			}()
			child := waitPidfile(t, pidfile)
			if tc.timeout == 0 {
				cancel()
			}
			var err error
			select {
			case err = <-errc:
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return after the context ended")
			}
			var ce *process.CancelledError
			if fault.CodeOf(err) != fault.ExecutionAgentStopped || !errors.As(err, &ce) || !errors.Is(err, tc.want) {
				t.Fatalf("want %s wrapping %v, got %v", fault.ExecutionAgentStopped, tc.want, err)
			}
			assertGone(t, child)
		})
	}
}

func TestRunSettlesTheGroupAfterExit(t *testing.T) {
	t.Run("a straggler is stopped", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		began := time.Now()
		res, err := Config{Linger: 100 * time.Millisecond, Grace: 200 * time.Millisecond}.Run(context.Background(),
			sh(`sleep 1000 & echo $! > "$PIDFILE"`, "PIDFILE="+pidfile))
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("exit %d, err %v", res.ExitCode, err)
		}
		assertGone(t, waitPidfile(t, pidfile))
		if d := time.Since(began); d > 3*time.Second {
			t.Errorf("settling took %v; the straggler held the run", d)
		}
	})
	t.Run("a member finishing within linger is not cut short", func(t *testing.T) {
		// Like mcp-serve flushing its spans after the CLI is gone.
		marker := filepath.Join(t.TempDir(), "flushed")
		_, err := Config{Linger: 3 * time.Second}.Run(context.Background(),
			sh(`(sleep 0.3; echo done > "$MARKER") >/dev/null 2>&1 &`, "MARKER="+marker))
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(marker); err != nil || string(b) != "done\n" {
			t.Fatalf("the lingering member was killed before it finished: %v", err)
		}
	})
	t.Run("a child that moved to its own group is stopped too", func(t *testing.T) {
		// Like codex, which starts its MCP server in a process group of its own. The CLI stays
		// for longer than the watch's longest pause (500 ms) once the child is there, so one
		// scan at least sees the link however late a loaded machine starts the child.
		pidfile := filepath.Join(t.TempDir(), "pid")
		_, err := Config{Linger: 50 * time.Millisecond, Grace: 200 * time.Millisecond}.Run(context.Background(),
			sh(`setsid sh -c 'echo $$ > "$PIDFILE"; exec sleep 1000' & while [ ! -s "$PIDFILE" ]; do sleep 0.01; done; sleep 0.6`, "PIDFILE="+pidfile))
		if err != nil {
			t.Fatal(err)
		}
		assertGone(t, waitPidfile(t, pidfile))
	})
	t.Run("a process that escaped before it was seen cannot hang the step", func(t *testing.T) {
		// Double fork: the grandchild is re-parented before any scan can link it to the CLI,
		// and it holds stdout. Run must still return, after drainWait.
		pidfile := filepath.Join(t.TempDir(), "pid")
		began := time.Now()
		_, err := Config{Linger: 50 * time.Millisecond}.Run(context.Background(),
			sh(`(setsid sh -c 'echo $$ > "$PIDFILE"; exec sleep 1000' &) ; exit 0`, "PIDFILE="+pidfile))
		pid := waitPidfile(t, pidfile)
		defer func() { _ = syscall.Kill(pid, syscall.SIGKILL) }()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(began); d > drainWait+2*time.Second {
			t.Errorf("Run took %v with a detached process holding stdout", d)
		}
	})
}

func TestRunStartErrors(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badInterp := filepath.Join(dir, "bad-interpreter")
	if err := os.WriteFile(badInterp, []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cmd  Command
		want string
	}{
		{"missing binary", Command{Provider: "fake", Path: filepath.Join(dir, "nope")}, fault.ExecutionAgentCLINotFound},
		{"not executable", Command{Provider: "fake", Path: noExec}, fault.ExecutionAgentCLINotFound},
		{"interpreter missing", Command{Provider: "fake", Path: badInterp}, fault.ExecutionAgentCLINotFound},
		{"missing dir", Command{Provider: "fake", Path: "/bin/sh", Dir: filepath.Join(dir, "no-such-dir")}, fault.ExecutionAgentSetup},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Config{}.Run(context.Background(), tc.cmd)
			if fault.CodeOf(err) != tc.want {
				t.Fatalf("want %s, got %v", tc.want, err)
			}
		})
	}
}

func TestRunStopsADescendantInItsOwnGroupOnCancel(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := Config{Grace: 200 * time.Millisecond}.Run(ctx,
			sh(`setsid sh -c 'trap "" TERM; echo $$ > "$PIDFILE"; while :; do sleep 0.05; done' & wait`, "PIDFILE="+pidfile))
		errc <- err
	}()
	child := waitPidfile(t, pidfile)
	time.Sleep(100 * time.Millisecond) // let the watcher see it, as it would see an MCP server
	cancel()
	if err := <-errc; fault.CodeOf(err) != fault.ExecutionAgentStopped {
		t.Fatalf("got %v", err)
	}
	assertGone(t, child)
}

func TestCtrlCCutsTheLingerShort(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // Ctrl+C shortly after the CLI exited; not t.Fatal here: this is not the test's goroutine
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(pidfile); err == nil {
				break
			}
		}
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	began := time.Now()
	res, err := Config{Linger: time.Minute, Grace: 200 * time.Millisecond}.Run(ctx,
		sh(`sleep 1000 & echo $! > "$PIDFILE"`, "PIDFILE="+pidfile))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("the CLI had exited normally: exit %d, %v", res.ExitCode, err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Ctrl+C during the linger still waited %v", d)
	}
	assertGone(t, waitPidfile(t, pidfile))
}
