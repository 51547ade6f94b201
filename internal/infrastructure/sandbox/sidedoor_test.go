package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/pluginsock"
)

// dialEnv makes the test binary a unix socket client: it connects to the path the variable
// names, writes a line and exits 0, or exits 3 when it cannot connect. Sandboxed calls run it
// as what a model's command would run (nc -U, ssh-add, curl --unix-socket make the same calls).
const dialEnv = "AWF_TEST_DIAL_UNIX"

func init() {
	path := os.Getenv(dialEnv)
	if path == "" {
		return
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		os.Stderr.WriteString("dial: " + err.Error() + "\n")
		os.Exit(3)
	}
	_, _ = c.Write([]byte("notes.put\n"))
	c.Close()
	os.Stdout.WriteString("connected\n")
	os.Exit(0)
}

// listenUnix serves a unix socket at path and counts the connections it accepts.
func listenUnix(t *testing.T, path string) *atomic.Int32 {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	n := new(atomic.Int32)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return n
}

// dialScript runs the test binary as a client of path inside the sandbox.
func dialScript(path string) string {
	self, _ := os.Executable()
	return dialEnv + "=" + path + " " + self + "; echo exit=$?"
}

// TestNoUnixSocketsWithoutNetwork: under network: false and the read policy, no pathname unix
// socket can be connected to: one outside the root, one in the call's TMPDIR, and an
// ssh-agent's named by SSH_AUTH_SOCK, which stays out of reach with the network on as well.
func TestNoUnixSocketsWithoutNetwork(t *testing.T) {
	w := newWorld(t)
	outside := filepath.Join(w.outside, "srv.sock")
	inTmp := filepath.Join(w.tmp, "srv.sock")
	agentDir := filepath.Join(w.outside, "ssh-XXXXabcd")
	os.Mkdir(agentDir, 0o700)
	agent := filepath.Join(agentDir, "agent.4242")
	nOut, nTmp, nAgent := listenUnix(t, outside), listenUnix(t, inTmp), listenUnix(t, agent)
	t.Setenv("SSH_AUTH_SOCK", agent)
	for _, s := range []string{outside, inTmp, agent} {
		if out, _ := w.run(t, PolicyRead, false, dialScript(s)); !strings.Contains(out, "exit=3") {
			t.Errorf("network off: connecting to %s: %s", s, out)
		}
	}
	if out, _ := w.run(t, PolicyRead, true, dialScript(agent)); !strings.Contains(out, "exit=3") {
		t.Errorf("network on: the agent socket named by SSH_AUTH_SOCK was reached: %s", out)
	}
	if n := nOut.Load() + nTmp.Load() + nAgent.Load(); n != 0 {
		t.Errorf("the servers accepted %d connections from the sandbox", n)
	}
	// socketpair stays allowed: a connected pair reaches nothing outside.
	if _, err := exec.LookPath("python3"); err == nil {
		w.mustWorkNet(t, false, `python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"x"); assert b.recv(1) == b"x"'`)
	}
	// The control: with the network on, the socket outside the root is reached.
	if out, _ := w.run(t, PolicyRead, true, dialScript(outside)); !strings.Contains(out, "exit=0") {
		t.Fatalf("control: network on, %s was not reached, so the test proves nothing: %s", outside, out)
	}
	waitFor(t, func() bool { return nOut.Load() == 1 })
}

// TestPluginSocketsHidden: go-plugin's socket directories, under pluginsock.Dir, are hidden from
// every call, network on or off.
func TestPluginSocketsHidden(t *testing.T) {
	w := newWorld(t)
	t.Setenv("XDG_RUNTIME_DIR", "")
	base, err := pluginsock.Ensure()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir, err := os.MkdirTemp(base, "plugin-dir")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "plugin12345")
	n := listenUnix(t, sock)
	if out, _ := w.run(t, PolicyRead, true, dialScript(sock)+"; echo entries=$(ls -A "+base+" | wc -l)"); !strings.Contains(out, "exit=3") || !strings.Contains(out, "entries=0") {
		t.Errorf("a plugin socket was reachable from the sandbox: %s", out)
	}
	if n.Load() != 0 {
		t.Errorf("the plugin socket accepted %d connections", n.Load())
	}
	// The control: unsandboxed, the same client reaches it.
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), dialEnv+"="+sock)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("control: %v %s", err, out)
	}
}

func (w world) mustWorkNet(t *testing.T, network bool, script string) {
	t.Helper()
	if out, code := w.run(t, PolicyRead, network, script); code != 0 {
		t.Errorf("%q failed (exit %d): %s", script, code, out)
	}
}

// waitFor polls cond for up to two seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("condition not met within 2s")
		}
	}
}

func TestDropSideDoors(t *testing.T) {
	env := []string{"PATH=/bin", "SSH_AUTH_SOCK=/tmp/a", "DOCKER_HOST=unix:///run/docker.sock",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus", "GPG_AGENT_INFO=/x:1:1", "HOME=/h"}
	got := strings.Join(DropSideDoors(env, []string{"DOCKER_HOST"}), " ")
	if want := "PATH=/bin DOCKER_HOST=unix:///run/docker.sock HOME=/h"; got != want {
		t.Errorf("DropSideDoors = %q, want %q", got, want)
	}
}
