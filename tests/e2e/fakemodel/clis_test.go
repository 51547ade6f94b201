package fakemodel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
	"github.com/awf-dev/awf/tests/testkit"
)

// These tests run each real agent CLI against the fake model with `awf mcp-serve` attached, in
// intercept mode (only awf's tools), and prove the whole loop: the model asks for Read and Bash
// through the proxy, the results travel back to the model, and the final answer quotes them.
// They skip loudly when a CLI is not installed (tests/e2e/install.sh installs them).
//
// Environment:
//   - AWF_AGENT_CLIS_BIN: directory holding claude, codex, gemini, opencode (default
//     $AWF_CACHE/agent-clis/node_modules/.bin, AWF_CACHE defaulting to ~/.cache/awf).
//   - AWF_BIN: an awf binary to use instead of building ./cmd/awf.
//   - AWF_E2E_REQUIRE_CLIS=1: a missing CLI fails the test instead of skipping it.
//   - FAKEMODEL_WRITE_SAMPLES=1: save each CLI's stdout as testdata/<cli>-output.json.

const finalText = "FAKEMODEL-FINAL-ANSWER"

var (
	awfOnce sync.Once
	awfPath string
	awfErr  error
	awfDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if awfDir != "" {
		_ = os.RemoveAll(awfDir)
	}
	os.Exit(code)
}

// repoRoot is the module root, three levels above this file.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// buildAWF builds ./cmd/awf once per test binary (or takes AWF_BIN).
func buildAWF(t *testing.T) string {
	t.Helper()
	awfOnce.Do(func() {
		if p := os.Getenv("AWF_BIN"); p != "" {
			awfPath = p
			return
		}
		awfDir, awfErr = os.MkdirTemp("", "fakemodel-awf-")
		if awfErr != nil {
			return
		}
		awfPath = filepath.Join(awfDir, "awf")
		// awf-serve beside awf: the CLIs spawn it for steps without plugin tools.
		for out, pkg := range map[string]string{awfPath: "./cmd/awf", filepath.Join(awfDir, "awf-serve"): "./cmd/awf-serve"} {
			cmd := exec.Command("go", "build", "-o", out, pkg)
			cmd.Dir = repoRoot()
			if b, err := cmd.CombinedOutput(); err != nil {
				awfErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
				return
			}
		}
	})
	if awfErr != nil {
		t.Fatal(awfErr)
	}
	return awfPath
}

// cliBin finds an installed CLI or skips the test with a message nobody can miss.
func cliBin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("AWF_AGENT_CLIS_BIN")
	if dir == "" {
		cache := os.Getenv("AWF_CACHE")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache", "awf")
		}
		dir = filepath.Join(cache, "agent-clis", "node_modules", ".bin")
	}
	bin := filepath.Join(dir, name)
	// go test shows skip messages only with -v; testkit.Skipf also prints them on the go
	// command's stderr. CI sets AWF_E2E_REQUIRE_CLIS=1 to fail instead.
	skip := func(format string, args ...any) { t.Helper(); testkit.Skipf(t, format, args...) }
	if os.Getenv("AWF_E2E_REQUIRE_CLIS") != "" {
		skip = t.Fatalf
	}
	if _, err := os.Stat(bin); err != nil {
		skip("end-to-end test not run: the %s CLI is not installed at %s; run tests/e2e/install.sh (needs the npm registry) or set AWF_AGENT_CLIS_BIN", name, bin)
	}
	if name == "codex" || name == "gemini" {
		if _, err := exec.LookPath("node"); err != nil {
			skip("end-to-end test not run: %s needs node on PATH, which is missing", name)
		}
	}
	return bin
}

// cliEnv is one CLI run's private world: HOME, working directory, proxy state and the fake.
type cliEnv struct {
	name                  string
	bin, awf              string
	home, work, state     string
	file, marker          string
	bashMarker            string
	serveConfig, activity string
	fake                  *fakemodel.Server
	stdout, stderr        []byte
	elapsed               time.Duration
}

// newCLIEnv prepares the temp dirs, the marker file, the mcp-serve config and a fake scripted to
// call Read on the marker file, then Bash, then answer.
func newCLIEnv(t *testing.T, name string) *cliEnv {
	t.Helper()
	e := &cliEnv{name: name, bin: cliBin(t, name), awf: buildAWF(t)}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e.home, e.work, e.state = filepath.Join(root, "home"), filepath.Join(root, "work"), filepath.Join(root, "state")
	for _, d := range []string{e.home, e.work, e.state} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.marker = fmt.Sprintf("MARKER-%s-%d", name, time.Now().UnixNano())
	e.file = filepath.Join(e.work, "secret.txt")
	writeFile(t, e.file, e.marker+"\n")
	// The command's output differs from its text, so seeing it proves Bash really ran.
	e.bashMarker = "BASH-42-" + e.marker
	e.activity = filepath.Join(e.state, "activity.jsonl")
	e.serveConfig = filepath.Join(e.state, "serve.json")
	writeJSON(t, e.serveConfig, map[string]any{
		"root_dir": e.work, "activity_file": e.activity, "ready_file": filepath.Join(e.state, "ready.json"),
		"log_file": filepath.Join(e.state, "serve.log"), "run_id": "fakemodel-" + name, "step": "agent",
	})
	e.fake = fakemodel.Start(t, fakemodel.Script{
		WantTools: []fakemodel.ToolCall{
			{Name: "Read", Args: map[string]any{"file_path": e.file}},
			{Name: "Bash", Args: map[string]any{"command": "echo BASH-$((6*7))-" + e.marker}},
		},
		FinalText: finalText,
	})
	return e
}

// env is the CLI's whole environment: nothing of the real user, outbound traffic routed to the
// fake (which refuses and records it), plus the CLI's own settings.
func (e *cliEnv) env(extra ...string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "LANG=C.UTF-8", "TERM=dumb",
		"HTTPS_PROXY=" + e.fake.URL, "HTTP_PROXY=" + e.fake.URL, "https_proxy=" + e.fake.URL, "http_proxy=" + e.fake.URL,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	return append(env, extra...)
}

// run executes the CLI non-interactively (stdin /dev/null, own process group) and fails the
// test with everything useful when it does not exit 0.
func (e *cliEnv) run(t *testing.T, env []string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Dir, cmd.Env = e.work, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	e.elapsed = time.Since(start)
	e.stdout, e.stderr = stdout.Bytes(), stderr.Bytes()
	t.Logf("%s exited after %v (err=%v); fake model saw:\n%s", e.name, e.elapsed.Round(time.Millisecond), err, e.fake.Summary())
	if err != nil {
		t.Fatalf("%s %s failed: %v\nstdout:\n%s\nstderr:\n%s", e.name, strings.Join(args, " "), err, clip(e.stdout), clip(e.stderr))
	}
	if os.Getenv("FAKEMODEL_WRITE_SAMPLES") != "" {
		writeFile(t, filepath.Join("testdata", e.name+"-output.json"), string(e.stdout))
	}
}

// check asserts the loop: the tools offered are exactly wantOffered, Read and Bash went through
// awf's proxy, their results reached the model, and final (the CLI's answer) quotes them.
func (e *cliEnv) check(t *testing.T, wantOffered []string, final string) {
	t.Helper()
	var main []fakemodel.Request
	for _, r := range e.fake.Requests() {
		if len(r.OfferedTools) > 0 {
			main = append(main, r)
		}
	}
	if len(main) == 0 {
		t.Fatalf("no model request offered any tool:\n%s", e.fake.Summary())
	}
	for _, r := range main {
		got := slices.Sorted(slices.Values(r.OfferedTools))
		if !slices.Equal(got, slices.Sorted(slices.Values(wantOffered))) {
			t.Errorf("tools offered to the model = %v, want exactly %v", r.OfferedTools, wantOffered)
		}
	}
	t.Logf("tools as the model saw them: %v", main[0].OfferedTools)

	results := strings.Join(e.fake.ToolResults(), "\n---\n")
	for _, m := range []string{e.marker, e.bashMarker} {
		if !strings.Contains(results, m) {
			t.Errorf("no tool result sent to the model contains %q; results:\n%s", m, results)
		}
	}
	t.Logf("tool results as the model received them: %q", e.fake.ToolResults())

	for _, m := range []string{finalText, e.marker, e.bashMarker} {
		if !strings.Contains(final, m) {
			t.Errorf("final answer lacks %q:\n%s", m, final)
		}
	}

	e.checkActivity(t)
	if out := e.fake.OutboundAttempts(); len(out) > 0 {
		t.Errorf("%s tried to reach the internet: %v", e.name, out)
	}
	if side := e.fake.SideRequests(); len(side) > 0 {
		t.Logf("side requests: %v", side)
	}
	e.checkNoLeftovers(t)
}

// checkActivity proves the calls went through awf: mcp-serve recorded Read and Bash, in order.
func (e *cliEnv) checkActivity(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile(e.activity)
	if err != nil {
		t.Fatalf("awf mcp-serve wrote no activity file (the proxy never served a call): %v", err)
	}
	var tools []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Tool, Source, Outcome string
			Intent                struct{ Variant, Decision string }
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("activity line is not JSON: %v: %s", err, line)
		}
		if rec.Source != "builtin" || rec.Outcome != "success" || rec.Intent.Decision != "allow" {
			t.Errorf("activity record %s: want source builtin, outcome success, decision allow", line)
		}
		tools = append(tools, rec.Tool)
	}
	if !slices.Equal(tools, []string{"Read", "Bash"}) {
		t.Errorf("activity records tools %v, want [Read Bash]", tools)
	}
}

// checkNoLeftovers waits briefly for every process whose command line names this run's state
// directory (awf mcp-serve, the CLI) to be gone.
func (e *cliEnv) checkNoLeftovers(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		return
	}
	// These processes are not our children: the process table is the only witness.
	var left []string
	if testkit.Eventually(5*time.Second, func() bool { left = processesMentioning(e.state); return len(left) == 0 }) {
		return
	}
	t.Errorf("processes left behind after %s exited: %v", e.name, left)
}

func processesMentioning(s string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !bytes.Contains(b, []byte(s)) {
			continue
		}
		out = append(out, filepath.Base(filepath.Dir(d))+": "+string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

func clip(b []byte) string {
	const n = 4000
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n/2]) + "\n…\n" + string(b[len(b)-n/2:])
}

// jsonLines decodes JSON Lines output (codex exec --json, opencode run --format json).
func jsonLines(data []byte) ([]map[string]any, error) {
	var out []map[string]any
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("line %d is not JSON: %v", i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}
