package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
)

// sandboxedProvider is a provider over a temp git repository whose Bash is sandboxed for allow;
// HOME and TMPDIR are temp directories.
func sandboxedProvider(t *testing.T, allow []tool.Variant, settings sandbox.Settings) (*Provider, string) {
	t.Helper()
	self, _ := os.Executable()
	sandboxtest.Require(t, self)
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git: %v %s", err, out)
		}
	}
	p, err := New(Options{Root: root, Sandbox: &SandboxOptions{Settings: settings, Allow: allow}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, p.Root()
}

func bashDef(t *testing.T, p *Provider) tool.Definition {
	defs, _ := p.ListTools(context.Background())
	for _, d := range defs {
		if d.Name == "Bash" {
			return d
		}
	}
	t.Fatal("no Bash")
	return tool.Definition{}
}

func TestBashSandboxReadStep(t *testing.T) {
	p, root := sandboxedProvider(t, []tool.Variant{tool.VariantRead}, sandbox.DefaultSettings())
	d := bashDef(t, p)
	if tool.CallWith(d.Annotations) != tool.VariantRead || !strings.Contains(d.Description, "read-only shell") {
		t.Fatalf("Bash under allow [read] is offered as %s: %s", tool.CallWith(d.Annotations), d.Description)
	}
	res := call(t, p, "Bash", map[string]any{"command": "git log --oneline && git status"})
	wantOK(t, res, "first commit")
	if c := res.Confinement; c == nil || !c.Enforced || c.Policy != "read" || c.ABI < 1 || !c.Network {
		t.Fatalf("confinement %+v", res.Confinement)
	}
	res = call(t, p, "Bash", map[string]any{"command": "touch x"})
	wantErr(t, res, "touch", "[sandbox: the kernel denied this", "read policy", "USER.SANDBOX.DENIED")
	if exists(filepath.Join(root, "x")) {
		t.Fatal("x was created under the read policy")
	}
	// The private TMPDIR is writable and removed after the call.
	out := wantOK(t, call(t, p, "Bash", map[string]any{"command": `echo hi > "$TMPDIR/f" && echo "$TMPDIR"`}))
	if dir := strings.TrimSpace(out); exists(dir) || !strings.Contains(dir, "awf-bash-") {
		t.Fatalf("private temp dir %q left behind or not used", dir)
	}
}

func TestBashSandboxWriteStepAndDeclaredVariant(t *testing.T) {
	p, root := sandboxedProvider(t, []tool.Variant{tool.VariantRead, tool.VariantWrite}, sandbox.DefaultSettings())
	if v := tool.CallWith(bashDef(t, p).Annotations); v != tool.VariantWrite {
		t.Fatalf("Bash offered as %s", v)
	}
	wantOK(t, call(t, p, "Bash", map[string]any{"command": "echo x > made.txt"}))
	wantErr(t, call(t, p, "Bash", map[string]any{"command": `touch "$HOME/x"`}), "sandbox")
	wantErr(t, call(t, p, "Bash", map[string]any{"command": "touch .git/hooks/post-checkout"}), "sandbox")
	// Split mode: the declared variant picks the policy.
	raw, _ := json.Marshal(map[string]any{"command": "echo y > read.txt"})
	res, _ := p.CallTool(tool.WithVariant(context.Background(), tool.VariantRead), "Bash", raw)
	if !res.IsError || exists(filepath.Join(root, "read.txt")) || res.Confinement.Policy != "read" {
		t.Fatalf("a read-declared call wrote: %+v", res)
	}
}

func TestBashSandboxDefaultStepStaysDestructive(t *testing.T) {
	p, _ := sandboxedProvider(t, nil, sandbox.DefaultSettings())
	if v := tool.CallWith(bashDef(t, p).Annotations); v != tool.VariantDestructive {
		t.Fatalf("Bash offered as %s", v)
	}
}

func TestBashSandboxOffAndRequired(t *testing.T) {
	p, root := sandboxedProvider(t, []tool.Variant{tool.VariantRead}, sandbox.Settings{Mode: sandbox.ModeOff, Network: true})
	res := call(t, p, "Bash", map[string]any{"command": "touch x"})
	if res.IsError || !exists(filepath.Join(root, "x")) || res.Confinement != nil {
		t.Fatalf("mode off must run as before: %+v", res)
	}
	// A helper that cannot exist makes the probe fail: required refuses, auto warns.
	o := &SandboxOptions{Settings: sandbox.Settings{Mode: sandbox.ModeRequired}, Self: "/nonexistent/awf"}
	if _, err := New(Options{Root: root, Sandbox: o}); err == nil || !strings.Contains(err.Error(), "USER.SANDBOX.UNAVAILABLE") && !strings.Contains(err.Error(), "cannot enforce") {
		t.Fatalf("required without a working helper: %v", err)
	}
	o.Settings.Mode = sandbox.ModeAuto
	q, err := New(Options{Root: root, Sandbox: o})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if q.SandboxWarning() == "" {
		t.Fatal("no warning when the sandbox cannot be enforced")
	}
	res = call(t, q, "Bash", map[string]any{"command": "echo unconfined"})
	if res.IsError || res.Confinement == nil || res.Confinement.Enforced {
		t.Fatalf("auto without sandbox: %+v", res)
	}
}

// TestBashSandboxTimeoutIsPrompt: the shell is not the PID namespace's init, so SIGTERM ends it
// at once instead of after the SIGKILL grace period; nothing it started survives.
func TestBashSandboxTimeoutIsPrompt(t *testing.T) {
	p, _ := sandboxedProvider(t, nil, sandbox.DefaultSettings())
	// What a sandboxed call costs on this machine now (the race detector and a loaded machine
	// make it hundreds of ms): a timeout must add its 300 ms, not the grace period.
	start := time.Now()
	call(t, p, "Bash", map[string]any{"command": "true"})
	base := time.Since(start)
	start = time.Now()
	res := call(t, p, "Bash", map[string]any{"command": "sleep 30 & sleep 30", "timeout": 300})
	wantErr(t, res, "timed out after 300 ms")
	if d, limit := time.Since(start), 300*time.Millisecond+2*base+bashGrace/2; d > limit {
		t.Fatalf("a sandboxed timeout took %v, more than 300 ms + twice a plain call (%v) + half the grace period (%v)", d, base, bashGrace)
	}
}

// pendingSpare waits for the spare prepared for the next call and returns its pid.
func pendingSpare(t *testing.T, p *Provider) int {
	t.Helper()
	p.sbx.mu.Lock()
	slot := p.sbx.pending
	p.sbx.mu.Unlock()
	if slot == nil {
		t.Fatal("no spare prepared after a call")
	}
	<-slot.done
	if slot.err != nil {
		t.Fatalf("the spare did not start: %v", slot.err)
	}
	return slot.sp.Cmd.Process.Pid
}

func gone(pid int) bool { return syscall.Kill(pid, 0) == syscall.ESRCH }

// Each call leaves a spare helper for the next, the next call is served by it (so the spare is
// then reaped and a new one prepared), and Close reaps the last.
func TestBashSandboxSpareServesTheNextCall(t *testing.T) {
	p, _ := sandboxedProvider(t, []tool.Variant{tool.VariantRead}, sandbox.DefaultSettings())
	if res := call(t, p, "Bash", map[string]any{"command": "echo one"}); res.IsError || !strings.Contains(res.JoinedText(), "one") {
		t.Fatalf("first call: %s", res.JoinedText())
	}
	first := pendingSpare(t, p)
	if gone(first) {
		t.Fatalf("the spare %d is not running", first)
	}
	if res := call(t, p, "Bash", map[string]any{"command": "echo two; touch x"}); !res.IsError || !strings.Contains(res.JoinedText(), "two") {
		t.Fatalf("second call, a write under read: %s", res.JoinedText())
	}
	if !gone(first) {
		t.Fatalf("the spare %d did not serve the second call: it is still waiting", first)
	}
	second := pendingSpare(t, p)
	if second == first {
		t.Fatal("no new spare after the second call")
	}
	p.Close()
	if !gone(second) {
		t.Fatalf("Close left the spare %d behind", second)
	}
}

// A spare that died while it waited does not cost the call: a helper started then runs it.
func TestBashSandboxDeadSpareIsReplaced(t *testing.T) {
	p, _ := sandboxedProvider(t, []tool.Variant{tool.VariantWrite}, sandbox.DefaultSettings())
	call(t, p, "Bash", map[string]any{"command": "true"})
	pid := pendingSpare(t, p)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Dead means a zombie nobody reaped yet: its end of the request pipe is closed.
	for deadline := time.Now().Add(10 * time.Second); ; {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if _, rest, _ := strings.Cut(string(stat), ") "); strings.HasPrefix(rest, "Z") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed spare %d did not die: %s", pid, stat)
		}
		time.Sleep(time.Millisecond)
	}
	res := call(t, p, "Bash", map[string]any{"command": "echo alive > made && cat made"})
	if res.IsError || !strings.Contains(res.JoinedText(), "alive") {
		t.Fatalf("the call after a dead spare: %s", res.JoinedText())
	}
	if !gone(pid) {
		t.Fatalf("the dead spare %d was not reaped", pid)
	}
}
