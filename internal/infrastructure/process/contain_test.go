package process

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/process/reaper"
	"github.com/awf-dev/awf/internal/infrastructure/process/reaper/reapertest"
	"github.com/awf-dev/awf/tests/testkit"
)

func escaperCmd(t *testing.T, tail string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", reapertest.New(dir).Script()+tail)
	cmd.Env = append(os.Environ(), "D="+dir, "HOME="+dir, "TMPDIR="+dir)
	return cmd, dir
}

// assertTreeGone checks, right after the start ended, that the escapers are dead (not merely
// signalled: the reaper returns only once they are reaped) and that nothing carries the
// start's token.
func assertTreeGone(t *testing.T, cmd *exec.Cmd, dir string) {
	t.Helper()
	if left := reaper.WithToken(Token(cmd)); len(left) > 0 {
		t.Errorf("processes carrying the token remain: %v", left)
	}
	reapertest.New(dir).CheckGone(t)
}

func TestRunEndsSetsidAndDoubleForkAfterExit(t *testing.T) {
	cmd, dir := escaperCmd(t, "exit 3\n")
	err := Run(context.Background(), cmd, time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("want exit 3, got %v", err)
	}
	assertTreeGone(t, cmd, dir)
}

func TestRunEndsSetsidAndDoubleForkOnTimeout(t *testing.T) {
	cmd, dir := escaperCmd(t, `touch "$D/ready"; sleep 60`+"\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		testkit.Eventually(20*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "ready")); return err == nil })
		cancel()
	}()
	start := time.Now()
	err := Run(ctx, cmd, time.Second)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want cancellation, got %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("Run took %v", d)
	}
	assertTreeGone(t, cmd, dir)
}

func TestRunKillsTreeThatIgnoresTerm(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", `setsid sh -c 'trap "" TERM; echo $$ > "$D/p1"; while :; do sleep 1; done' &
( sh -c 'trap "" TERM; echo $$ > "$D/p2"; while :; do sleep 1; done' & )
while [ ! -s "$D/p1" ] || [ ! -s "$D/p2" ]; do sleep 0.01; done; touch "$D/ready"; sleep 60`)
	cmd.Env = append(os.Environ(), "D="+dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		testkit.Eventually(20*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "ready")); return err == nil })
		cancel()
	}()
	if err := Run(ctx, cmd, 200*time.Millisecond); !errors.Is(err, context.Canceled) {
		t.Fatalf("want cancellation, got %v", err)
	}
	for _, f := range []string{"p1", "p2"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s (pid %d) survived", f, pid)
		}
	}
}

func TestSweepEndsTreeOfKilledReaper(t *testing.T) {
	cmd, dir := escaperCmd(t, `touch "$D/ready"; sleep 60`+"\n")
	Contain(cmd, time.Second)
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	if !testkit.Eventually(20*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "ready")); return err == nil }) {
		t.Fatal("command never got ready")
	}
	_ = cmd.Process.Kill() // the reaper dies without ending its tree
	err := Wait(context.Background(), cmd, time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want the reaper's kill, got %v", err)
	}
	_ = KillGroup(cmd.Process.Pid, syscall.SIGKILL) // the shell, still in the reaper's group
	// Orphans of a dead reaper are reaped by init or another subreaper, maybe not at once.
	if !testkit.Eventually(10*time.Second, func() bool { return len(reaper.WithToken(Token(cmd))) == 0 }) {
		t.Fatalf("token still carried by %v", reaper.WithToken(Token(cmd)))
	}
}

func TestStartReportsExecFailure(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s")
	if err := os.WriteFile(script, []byte("#!/nonexistent/interp\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), exec.Command(script), time.Second)
	var pe *os.PathError
	if !errors.As(err, &pe) || !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("want a PathError ENOENT, got %#v", err)
	}
}

func TestContainedStatusMirrorsSignal(t *testing.T) {
	err := Run(context.Background(), exec.Command("sh", "-c", "kill -TERM $$"), time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want ExitError, got %v", err)
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("want death by SIGTERM, got %v", ee)
	}
}

func TestContainKeepsStdioAndEnv(t *testing.T) {
	cmd := exec.Command("sh", "-c", `read x; echo "$x $AWF_PROC_REAP ${#AWF_PROC_TOKEN}"`)
	cmd.Stdin = strings.NewReader("hello\n")
	var out strings.Builder
	cmd.Stdout = &out
	if err := Run(context.Background(), cmd, time.Second); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "hello  32" {
		t.Fatalf("output %q: stdin, the reaper's variables or the token did not pass as expected", got)
	}
}

func TestKillTreeEndsAReapersStart(t *testing.T) {
	cmd, dir := escaperCmd(t, `touch "$D/ready"; sleep 60`+"\n")
	Contain(cmd, time.Second)
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	if !testkit.Eventually(20*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "ready")); return err == nil }) {
		t.Fatal("command never got ready")
	}
	if len(reaper.WithToken(Token(cmd))) < 3 {
		t.Fatalf("the start's processes do not all carry its token: %v", reaper.WithToken(Token(cmd)))
	}
	KillTree(cmd.Process.Pid)
	<-done
	if left := reaper.WithToken(Token(cmd)); len(left) > 0 {
		t.Errorf("processes carrying the token remain: %v", left)
	}
	for _, f := range []string{"p1", "p2"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if !testkit.Eventually(10*time.Second, func() bool { return pid > 0 && !testkit.Alive(pid) }) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s (pid %d) survived", f, pid)
		}
	}
}

// TestContainedExitCodeIsNeverLost runs a failing command many times: the reaper learns the
// command's status and that its tree is gone at nearly the same moment, and must leave with
// the status every time (a race once let some runs of `exit 5` leave with 0).
func TestContainedExitCodeIsNeverLost(t *testing.T) {
	for i := range 150 {
		err := Run(context.Background(), exec.Command("sh", "-c", "exit 5"), time.Second)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 5 {
			t.Fatalf("run %d: want exit code 5, got %v", i, err)
		}
	}
}
