package sandbox

import (
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

// A spare's command gets the environment of its call and nothing of the caller's: the spare
// itself starts with GOMAXPROCS=1 alone, and its /proc/1/environ is out of the command's reach
// anyway (Landlock denies ptrace-class access to a process outside the command's domain).
func TestSpareEnvironmentIsTheCalls(t *testing.T) {
	w := newWorld(t)
	t.Setenv("AWF_TEST_SECRET", "sk-spare-secret")
	self, _ := os.Executable()
	pol := Policy{Policy: PolicyRead, Root: w.root, TmpDir: w.tmp, Network: true}
	out, err := runSpare(self, w.root, pol, []string{"/bin/bash", "-c", `echo "call=$CALL_VAR"; echo "secret=$AWF_TEST_SECRET"; echo "init=$(tr '\0' ' ' </proc/1/environ 2>&1)"`},
		[]string{"PATH=/usr/bin:/bin", "CALL_VAR=from-the-call"})
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, want := range []string{"call=from-the-call\n", "secret=\n", "init=", "/proc/1/environ: Permission denied"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-spare-secret") {
		t.Errorf("the caller's secret reached the sandbox:\n%s", out)
	}
}

// A call whose network setting differs from the spare's namespaces is refused before it is
// sent (the spare would otherwise run it with the wrong network), and a spare with no call
// fails without running anything.
func TestSpareRefusals(t *testing.T) {
	w := newWorld(t)
	self, _ := os.Executable()
	sp, err := StartSpare(self, w.root, true)
	if err != nil {
		t.Fatal(err)
	}
	err = sp.Send(Policy{Policy: PolicyRead, Root: w.root, TmpDir: w.tmp, Network: false}, []string{"/bin/true"}, nil)
	if err == nil || !strings.Contains(err.Error(), "network") {
		t.Fatalf("a no-network call was sent to a spare with the network: %v", err)
	}
	pid := sp.Cmd.Process.Pid
	sp.Discard()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("a discarded spare is still there: kill(%d, 0) = %v", pid, err)
	}

	sp, err = StartSpare(self, w.root, true)
	if err != nil {
		t.Fatal(err)
	}
	sp.req.Close() // no call at all
	sp.req = nil
	out, _ := io.ReadAll(sp.Out)
	err = sp.Cmd.Wait()
	if !isExit(err) || sp.Cmd.ProcessState.ExitCode() != 125 || !strings.Contains(string(out), "empty request") {
		t.Fatalf("a spare without a call: %v, %q", err, out)
	}
	if err := sp.Send(Policy{Policy: PolicyRead, Root: w.root, TmpDir: w.tmp, Network: true}, []string{"/bin/true"}, nil); err == nil {
		t.Fatal("a spare took a second call")
	}
}
