package sandbox

import (
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The test binary is its own helper: early.go's init runs it when started as one, which these
// tests therefore also prove (there is no TestMain doing it for them).

// world is a temp project: root with .awf/, .git/{config,hooks}, a temp HOME and TMPDIR.
type world struct {
	root, home, tmp, outside string
	self                     string   // the helper; "" is the test binary
	extra                    []string // protected paths beyond ProtectedPaths' own
}

func newWorld(t *testing.T) world {
	t.Helper()
	requireSandbox(t)
	w := world{root: t.TempDir(), home: t.TempDir(), tmp: t.TempDir(), outside: t.TempDir()}
	t.Setenv("HOME", w.home)
	t.Setenv("TMPDIR", w.outside)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = w.root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	os.MkdirAll(filepath.Join(w.root, ".awf", "runs"), 0o755)
	os.WriteFile(filepath.Join(w.root, "a.txt"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(w.home, "precious"), []byte("keep\n"), 0o644)
	os.WriteFile(filepath.Join(w.outside, "precious"), []byte("keep\n"), 0o644)
	git("add", "a.txt")
	git("commit", "-qm", "first")
	os.WriteFile(filepath.Join(w.root, "a.txt"), []byte("hello\nworld\n"), 0o644)
	return w
}

// requireSandbox skips where the kernel cannot sandbox for this user (KernelCan), unless
// AWF_REQUIRE_SANDBOX=1 (.ci/run sets it where the kernel can), and fails where it can but the
// helper's probe does not enforce: a broken helper must fail these tests, not skip them. It is
// sandboxtest.Require, which this package's own tests cannot import.
func requireSandbox(t *testing.T) {
	t.Helper()
	if err := KernelCan(); err != nil {
		if os.Getenv("AWF_REQUIRE_SANDBOX") == "1" {
			t.Fatalf("AWF_REQUIRE_SANDBOX=1, yet the kernel cannot sandbox here: %v", err)
		}
		t.Skipf("the kernel cannot sandbox here: %v", err)
	}
	self, _ := os.Executable()
	if st := Probe(self); !st.Enforced || st.ABI != ABI() || st.Reason != "" {
		t.Fatalf("the kernel can sandbox (uid %d), yet the helper's probe gave %+v", os.Getuid(), st)
	}
}

// run runs script with bash under policy in w; it returns the combined output and exit code.
func (w world) run(t *testing.T, policy string, network bool, script string, env ...string) (string, int) {
	t.Helper()
	self := w.self
	if self == "" {
		self, _ = os.Executable()
	}
	pol := Policy{Policy: policy, Root: w.root, TmpDir: w.tmp, Network: network, Protected: ProtectedPaths(w.root, w.extra)}
	out, err := runSpare(self, w.root, pol, []string{"/bin/bash", "-c", script}, TempEnv(append(os.Environ(), env...), w.tmp))
	if err != nil && !isExit(err) {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &ee):
		if ee.ExitCode() == 125 {
			t.Fatalf("the helper failed: %s", out)
		}
		return out, ee.ExitCode()
	}
	t.Fatalf("run: %v", err)
	return "", -1
}

// runSpare runs argv under pol the way Bash does: a spare started in dir, then its call.
func runSpare(self, dir string, pol Policy, argv, env []string) (string, error) {
	sp, err := StartSpare(self, dir, pol.Network)
	if err != nil {
		return "", err
	}
	defer sp.Out.Close()
	if err := sp.Send(pol, argv, env); err != nil {
		sp.Discard()
		return "", err
	}
	out, _ := io.ReadAll(sp.Out)
	return string(out), sp.Cmd.Wait()
}

func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

func (w world) mustFail(t *testing.T, policy, script string) {
	t.Helper()
	if out, code := w.run(t, policy, true, script); code == 0 {
		t.Errorf("%s: %q succeeded under the sandbox: %s", policy, script, out)
	}
}

func (w world) mustWork(t *testing.T, policy, script string) string {
	t.Helper()
	out, code := w.run(t, policy, true, script)
	if code != 0 {
		t.Errorf("%s: %q failed (exit %d): %s", policy, script, code, out)
	}
	return out
}

func TestReadPolicy(t *testing.T) {
	w := newWorld(t)
	for _, dir := range []string{w.root, w.home, w.outside, filepath.Join(w.root, ".awf")} {
		for _, s := range []string{"touch %s/new", "rm %s/a.txt %s/precious", "mkdir %s/d", "echo x > %s/f", "mv %s/a.txt %s/b.txt"} {
			w.mustFail(t, PolicyRead, strings.ReplaceAll(s, "%s", dir))
		}
	}
	w.mustFail(t, PolicyRead, "chmod 600 a.txt")
	w.mustFail(t, PolicyRead, "touch -d 2000-01-01 a.txt")
	if b, _ := os.ReadFile(filepath.Join(w.root, "a.txt")); string(b) != "hello\nworld\n" {
		t.Fatalf("a.txt changed: %q", b)
	}
	if out := w.mustWork(t, PolicyRead, "cat a.txt && ls && git status --short && git log --oneline && git diff"); !strings.Contains(out, "+world") || !strings.Contains(out, "first") {
		t.Errorf("read tools gave: %s", out)
	}
	// The private temp dir and /dev/null stay writable, and TMPDIR/GOCACHE point there.
	w.mustWork(t, PolicyRead, `echo x > "$TMPDIR/t" && echo x > /dev/null && test "$GOCACHE" = "$TMPDIR/go-build" && mkdir -p "$GOCACHE"`)
}

func TestWritePolicy(t *testing.T) {
	w := newWorld(t)
	w.mustWork(t, PolicyWrite, "chmod 600 a.txt && touch -d 2000-01-01 a.txt && chmod 644 a.txt")
	w.mustWork(t, PolicyWrite, "echo x > new.txt && mkdir -p d/e && mv new.txt d/e/ && rm -r d && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm second")
	for _, s := range []string{
		`touch "$HOME/x"`, `rm "$HOME/precious"`, "touch " + w.outside + "/x", "touch /tmp/awf-sandbox-test-$$-$RANDOM",
		"touch .awf/x", "rm -r .awf", "echo x > .git/hooks/pre-commit", "echo '[core] fsmonitor = evil' >> .git/config",
		"git config core.fsmonitor evil",
		// Landlock alone lets these through on files the user owns; the read-only mounts do not.
		`chmod 777 "$HOME/precious"`, `touch -d 2000-01-01 "$HOME/precious"`, "chmod 777 " + w.outside + "/precious",
		"chmod 666 .git/config", "chmod +x .git/hooks",
	} {
		w.mustFail(t, PolicyWrite, s)
	}
	if b, _ := os.ReadFile(filepath.Join(w.root, ".git", "config")); strings.Contains(string(b), "evil") {
		t.Fatal(".git/config was changed")
	}
	if _, err := os.Stat(filepath.Join(w.root, ".awf", "runs")); err != nil {
		t.Fatal(".awf was changed")
	}
}

func TestDestructiveCannotRemoveHome(t *testing.T) {
	w := newWorld(t)
	w.run(t, PolicyDestructive, true, `rm -rf "$HOME"; rm -rf `+w.outside+`; rm -rf .awf .git/hooks; rm -rf ./*`)
	for _, f := range []string{filepath.Join(w.home, "precious"), filepath.Join(w.outside, "precious"), filepath.Join(w.root, ".awf", "runs"), filepath.Join(w.root, ".git", "config")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(w.root, "a.txt")); err == nil {
		t.Error("rm -rf ./* inside the root should work under destructive")
	}
}

func TestNoAncestorEnviron(t *testing.T) {
	w := newWorld(t)
	// A process outside the sandbox whose environment holds a model key, as the agent CLI and
	// mcp-serve do (Setenv would not show in /proc/<pid>/environ, which is fixed at exec).
	decoy := exec.Command("sleep", "30")
	decoy.Env = []string{"OPENAI_API_KEY=sk-sandbox-secret"}
	if err := decoy.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { decoy.Process.Kill(); decoy.Wait() }()
	script := `cat /proc/$PPID/environ; for p in /proc/[0-9]*; do cat $p/environ; done; cat /proc/` + itoa(decoy.Process.Pid) + `/environ; echo done`
	out, _ := w.run(t, PolicyWrite, true, script)
	if strings.Contains(out, "sk-sandbox-secret") || !strings.Contains(out, "done") {
		t.Fatalf("the sandbox read a process's environment outside it: %s", out)
	}
	// Unsandboxed, the same script finds it: the test can fail.
	// The private /proc shows the sandbox's own processes only: the helper, the shell, ls.
	if out, _ := w.run(t, PolicyWrite, true, "ls -d /proc/[0-9]* | wc -l"); strings.TrimSpace(out) == "" || len(strings.TrimSpace(out)) > 1 {
		t.Fatalf("the sandbox's /proc lists %s processes", out)
	}
	plain, _ := exec.Command("/bin/bash", "-c", script).CombinedOutput()
	if !strings.Contains(string(plain), "sk-sandbox-secret") {
		t.Fatalf("control run did not see the decoy's key: %s", plain)
	}
}

func TestNetworkOff(t *testing.T) {
	w := newWorld(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer udp.Close()
	tport := tcp.Addr().(*net.TCPAddr).Port
	uport := udp.LocalAddr().(*net.UDPAddr).Port
	tcpScript := "exec 3<>/dev/tcp/127.0.0.1/" + itoa(tport)
	udpScript := "echo ping >/dev/udp/127.0.0.1/" + itoa(uport)
	if out, code := w.run(t, PolicyWrite, false, tcpScript); code == 0 {
		t.Errorf("TCP connect worked with network off: %s", out)
	}
	if out, code := w.run(t, PolicyWrite, false, udpScript); code == 0 {
		t.Errorf("UDP send worked with network off: %s", out)
	}
	// With the network on, both work: the test can fail.
	if out, code := w.run(t, PolicyWrite, true, tcpScript+" && "+udpScript); code != 0 {
		t.Errorf("network on: %s", out)
	}
}

// TestLandlockBeyondMounts: writes the read-only mounts let through (a fresh /proc is a
// writable mount; device nodes stay writable on a read-only one) are refused by Landlock.
func TestLandlockBeyondMounts(t *testing.T) {
	w := newWorld(t)
	for _, p := range []string{PolicyRead, PolicyWrite} {
		w.mustFail(t, p, "echo renamed > /proc/self/comm")
		if _, err := os.Stat("/dev/ptmx"); err == nil {
			w.mustFail(t, p, "exec 3<>/dev/ptmx")
		}
	}
	// Unsandboxed, both work: the test can fail.
	if out, err := exec.Command("/bin/bash", "-c", "echo renamed > /proc/self/comm").CombinedOutput(); err != nil {
		t.Fatalf("control: %v %s", err, out)
	}
}

func TestNoCapabilities(t *testing.T) {
	w := newWorld(t)
	out := w.mustWork(t, PolicyWrite, "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.Fields(line); len(f) != 2 || strings.Trim(f[1], "0") != "" {
			t.Errorf("the shell holds a capability: %q", line)
		}
	}
	if !strings.Contains(out, "CapBnd") {
		t.Fatalf("no capability lines: %s", out)
	}
	// With a capability left, the shell could unmount the read-only bind over .awf/.
	w.mustFail(t, PolicyWrite, "umount .awf || umount -l .awf")
	w.mustFail(t, PolicyWrite, "mount -o remount,rw .awf")
	w.mustFail(t, PolicyWrite, "touch .awf/after-umount")
	// The shell runs as the caller's uid and gid, root or not: files keep their owners.
	ids := w.mustWork(t, PolicyWrite, "echo $(id -u) $(id -g) $(stat -c %u a.txt)")
	if want := itoa(os.Getuid()) + " " + itoa(os.Getgid()) + " " + itoa(os.Getuid()); strings.TrimSpace(ids) != want {
		t.Errorf("the shell's ids and a.txt's owner are %q, want %q", ids, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func copyBinary(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
