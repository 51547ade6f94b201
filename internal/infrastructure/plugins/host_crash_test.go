package plugins

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// slowCall starts a 20 s echo and returns a channel with its outcome.
func slowCall(h *Host) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := h.Execute(context.Background(), "echo", "echo", json.RawMessage(`{"text":"slow","delay_ms":20000}`))
		done <- err
	}()
	return done
}

// crashDuringCall starts a slow call (starting the plugin if needed), SIGKILLs the plugin while
// the call runs and returns the call's error.
func crashDuringCall(t *testing.T, f *fixture) error {
	t.Helper()
	done := slowCall(f.host)
	plugintest.Await(t, f.waiting, 10*time.Second, "the slow call to reach echo's handler")
	st, _ := f.host.Status("echo")
	if st.State != StateRunning || st.PID == 0 {
		t.Fatalf("echo is %s (pid %d) while serving a call", st.State, st.PID)
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	return waitErr(t, done, 5*time.Second)
}

func waitErr(t *testing.T, done <-chan error, within time.Duration) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		t.Fatalf("the call did not return within %s", within)
		return nil
	}
}

func TestHostPluginKilledMidCall(t *testing.T) {
	f := newFixture(t, "", Options{MaxCrashes: 2})
	f.exec(t, "echo", "echo", `{"text":"warm up"}`)
	pid := f.pid(t, "echo")

	done := slowCall(f.host)
	plugintest.Await(t, f.waiting, 10*time.Second, "the slow call to reach echo's handler")
	start := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := waitErr(t, done, 5*time.Second)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the call took %s to notice the crash", took)
	}
	if fault.CodeOf(err) != fault.ExecutionPluginCrashed || !strings.Contains(err.Error(), `plugin "echo" exited during the call to echo`) ||
		!strings.Contains(err.Error(), "signal: killed") || !strings.Contains(err.Error(), "starts it again") {
		t.Fatalf("error = %v, want %s naming the plugin and how it died", err, fault.ExecutionPluginCrashed)
	}
	if st, _ := f.host.Status("echo"); st.State != StateCrashed {
		t.Errorf("state after the crash = %s", st.State)
	}

	// The next call starts a new process.
	if res := f.exec(t, "echo", "echo", `{"text":"back"}`); res.JoinedText() != "back" {
		t.Fatalf("call after the crash = %+v", res)
	}
	newPID := f.pid(t, "echo")
	if newPID == pid {
		t.Fatal("the plugin was not restarted")
	}
	if st, _ := f.host.Status("echo"); st.Restarts != 1 {
		t.Errorf("restarts = %d, want 1", st.Restarts)
	}

	// Two deaths in a row (MaxCrashes 2) stop the restarts, with a clear error.
	for i := range 2 {
		err := crashDuringCall(t, f)
		if fault.CodeOf(err) != fault.ExecutionPluginCrashed {
			t.Fatalf("crash %d: %v", i+1, err)
		}
		if i == 1 && !strings.Contains(err.Error(), "will not start it again") {
			t.Errorf("second crash in a row does not say restarts stop: %v", err)
		}
	}
	_, err = f.host.Execute(context.Background(), "echo", "echo", json.RawMessage(`{"text":"x"}`))
	if fault.CodeOf(err) != fault.ExecutionPluginCrashLoop {
		t.Fatalf("call after repeated crashes = %v, want %s", err, fault.ExecutionPluginCrashLoop)
	}
	if z := plugintest.Zombies(t); len(z) != 0 {
		t.Errorf("zombies after crashes: %v", z)
	}
}

func TestHostCloseDuringCall(t *testing.T) {
	f := newFixture(t, "", Options{})
	f.exec(t, "echo", "echo", `{"text":"warm up"}`)
	done := slowCall(f.host)
	plugintest.Await(t, f.waiting, 10*time.Second, "the slow call to reach echo's handler")
	start := time.Now()
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("Close took %s with a call in flight", took)
	}
	if err := waitErr(t, done, 5*time.Second); fault.CodeOf(err) != fault.ExecutionPluginClosed {
		t.Errorf("call in flight during Close = %v, want %s", err, fault.ExecutionPluginClosed)
	}
	if pids := plugintest.Processes(t, f.bins["echo"]); len(pids) != 0 {
		t.Errorf("echo processes after Close: %v", pids)
	}
}
