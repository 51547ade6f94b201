//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// serveEnv makes the test binary stand in for mcp-serve: it marks itself non-dumpable (unless
// the value is "control"), runs an unsandboxed Bash that reads its parent's environ and mem, as
// Bash under mode: off would, then starts a sandboxed call and a child with parent-written id
// maps, and prints what each gave.
const serveEnv = "AWF_TEST_SERVE_NODUMP"

// plantedKey is in the stand-in's environment only, never in its Bash's.
const plantedKey = "OPENAI_API_KEY=sk-planted-nodump-key"

func init() {
	mode := os.Getenv(serveEnv)
	if mode == "" {
		return
	}
	kernel := KernelCan() // before CloseProcToChildren: its probe has its id maps written for it
	if mode != "control" {
		if err := CloseProcToChildren(); err != nil {
			os.Stdout.WriteString("prctl: " + err.Error() + "\n")
		}
	}
	bash := exec.Command("/bin/bash", "-c", `cat /proc/$PPID/environ; head -c 64 /proc/$PPID/mem; echo bash-done`)
	bash.Env = []string{"PATH=/usr/bin:/bin"}
	out, _ := bash.CombinedOutput()
	os.Stdout.Write(out)
	if kernel != nil { // nobody, for a root test run, may be refused namespaces
		os.Stdout.WriteString("no-namespaces: " + kernel.Error() + "\n")
		os.Exit(0)
	}
	dir := os.Getenv("TMPDIR")
	self, _ := os.Executable()
	pol := Policy{Policy: PolicyRead, Root: dir, TmpDir: dir, Network: true}
	if got, err := runSpare(self, dir, pol, []string{"/bin/echo", "spare-ran"}, nil); err != nil {
		os.Stdout.WriteString("spare: " + err.Error() + " " + got + "\n")
	} else {
		os.Stdout.WriteString(got)
	}
	mapped := exec.Command("/bin/true")
	mapped.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}}
	if err := StartMapped(mapped); err != nil {
		os.Stdout.WriteString("mapped: " + err.Error() + "\n")
	} else if mapped.Wait() == nil {
		os.Stdout.WriteString("mapped-ran\n")
	}
	os.Exit(0)
}

// runStandIn runs the test binary as mcp-serve in mode, as a user other than root: root's
// children hold CAP_SYS_PTRACE, which opens /proc/<pid>/environ whatever the dumpable flag, so
// as root the stand-in runs as nobody (and its binary is copied where nobody may run it).
func runStandIn(t *testing.T, mode string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "awf-nodump-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777)
	self, _ := os.Executable()
	bin := filepath.Join(dir, "serve")
	copyBinary(t, self, bin)
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = []string{serveEnv + "=" + mode, plantedKey, "PATH=/usr/bin:/bin", "TMPDIR=" + dir, "HOME=" + dir}
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the stand-in failed: %v %s", err, out)
	}
	return string(out)
}

// TestServeNotDumpable: Bash run by a non-dumpable mcp-serve without the sandbox reads neither
// its parent's environment nor its memory, while the sandbox's spares and children with
// parent-written id maps (StartMapped) still start.
func TestServeNotDumpable(t *testing.T) {
	requireSandbox(t)
	out := runStandIn(t, "on")
	if strings.Contains(out, "sk-planted") || !strings.Contains(out, "bash-done") {
		t.Errorf("unsandboxed Bash read mcp-serve's environment: %s", out)
	}
	switch {
	case os.Getuid() == 0 && strings.Contains(out, "no-namespaces"):
		t.Logf("nobody may not create namespaces here, so spares were not tried: %s", out)
	case !strings.Contains(out, "spare-ran") || !strings.Contains(out, "mapped-ran"):
		t.Errorf("a non-dumpable mcp-serve could not start a spare or a mapped child: %s", out)
	}
	// The control: dumpable, the same Bash reads the key, so the test can fail.
	if out := runStandIn(t, "control"); !strings.Contains(out, "sk-planted") {
		t.Fatalf("control: a dumpable parent's environment was not read: %s", out)
	}
}
