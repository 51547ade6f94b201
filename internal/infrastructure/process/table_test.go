package process

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startSleeper starts a child that ignores nothing and returns its pid and a channel closed
// once it has been reaped.
func startSleeper(t *testing.T, script string) (int, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { _ = cmd.Wait(); close(reaped) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-reaped })
	return cmd.Process.Pid, reaped
}

func TestTableStopsAProcess(t *testing.T) {
	var tab Table
	pid, reaped := startSleeper(t, "exec sleep 60")
	if !tab.Alive(pid) {
		t.Fatal("a running child is not alive")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := tab.WaitExit(ctx, pid); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitExit on a live process = %v", err)
	}
	if err := tab.Terminate(pid); err != nil {
		t.Fatal(err)
	}
	if err := tab.WaitExit(context.Background(), pid); err != nil {
		t.Fatal(err)
	}
	<-reaped
	// Independent of Alive: signal 0 says the pid no longer exists.
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("pid %d still exists: %v", pid, err)
	}
	if err := tab.Terminate(pid); err != nil {
		t.Fatalf("terminating a gone process: %v", err)
	}
	if tab.Alive(pid) || tab.Alive(0) || tab.Alive(-1) {
		t.Fatal("a gone or invalid pid is alive")
	}
}

func TestTableKillsWhatIgnoresTerm(t *testing.T) {
	var tab Table
	pid, reaped := startSleeper(t, "trap '' TERM; while :; do sleep 1; done")
	if err := tab.Kill(pid); err != nil {
		t.Fatal(err)
	}
	<-reaped
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("pid %d still exists: %v", pid, err)
	}
	if err := tab.Kill(0); err == nil {
		t.Fatal("kill of pid 0 accepted")
	}
}

func TestTableSeesZombiesAsGone(t *testing.T) {
	// A child that exited but was not reaped yet is a zombie: not alive.
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := (Table{}).WaitExit(ctx, cmd.Process.Pid); err != nil {
		t.Fatalf("zombie still alive: %v", err)
	}
}
