package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// exe is the binary process pid runs now (after any exec), as one of awfBin and serveBin. It
// reads the process's name from /proc/<pid>/comm, which the kernel sets at each exec: the
// server marks itself non-dumpable, so /proc/<pid>/exe is closed to a test that is not root.
func exe(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if err != nil {
		t.Fatal(err)
	}
	comm := strings.TrimSpace(string(b))
	for _, bin := range []string{awfBin, serveBin} {
		if name := filepath.Base(bin); comm == name[:min(len(name), 15)] {
			return bin
		}
	}
	return comm
}

// TestSlimServesPlainSteps: awf-serve answers a step without plugin tools itself, and a step
// with plugin tools from awf, exec'd in the same process (the CLI's child stays the server).
func TestSlimServesPlainSteps(t *testing.T) {
	plain := start(t, nil)
	if got := exe(t, plain.cmd.Process.Pid); got != serveBin {
		t.Fatalf("a plain step is served by %s, want %s", got, serveBin)
	}
	names := listNames(t, plain)
	if strings.Join(names, ",") != "Bash,Edit,Glob,Grep,Read,Write" {
		t.Fatalf("awf-serve offers %v", names)
	}
	withPlugins := start(t, pluginConfig(t, nil))
	if got := exe(t, withPlugins.cmd.Process.Pid); got != awfBin {
		t.Fatalf("a step with plugin tools is served by %s, want awf (%s)", got, awfBin)
	}
	if names := listNames(t, withPlugins); !slices.Contains(names, "echo_echo") {
		t.Fatalf("after the hand-over the plugin tools are missing: %v", names)
	}
	traced := start(t, map[string]any{"otel_env": map[string]string{"OTEL_TRACES_EXPORTER": "console"}})
	if got := exe(t, traced.cmd.Process.Pid); got != awfBin {
		t.Fatalf("a traced step is served by %s, want awf (%s)", got, awfBin)
	}
}

// TestSlimWithoutAWFSaysWhatIsMissing: awf-serve installed alone cannot serve plugin tools and
// says so, with a hint, instead of serving a step without them.
func TestSlimWithoutAWFSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	alone := filepath.Join(dir, "awf-serve")
	b, err := os.ReadFile(serveBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.json")
	body, _ := json.Marshal(pluginConfig(t, map[string]any{"root_dir": dir}))
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, alone, "mcp-serve", "--config", cfg)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(string(out), "SYSTEM.MCP_SERVE.START") || !strings.Contains(string(out), filepath.Join(dir, "awf")) {
		t.Fatalf("exit %v, output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "install awf-serve and awf side by side") {
		t.Fatalf("no hint:\n%s", out)
	}
}

// TestBinariesInTheRootAreProtected: with awf built inside the project (bin/awf, bin/awf-serve,
// as `make build` does), a step's Bash may write the root but neither binary: the next step
// would spawn it, and every Bash call runs its sandbox helper before any confinement applies.
func TestBinariesInTheRootAreProtected(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, b := range []string{awfBin, serveBin} {
		data, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "bin", filepath.Base(b)), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{"root_dir": root, "intent": map[string]any{"allow": []string{"read", "write", "destructive"}}})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "awf-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(filepath.Join(root, "bin", "awf-serve"), "mcp-serve", "--config", cfg)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sess.Close() }()
	s := &server{root: root, session: sess}
	out, _ := s.call(t, "Bash", map[string]any{"command": "echo made > made.txt; cat made.txt"})
	if !strings.Contains(out, "made") {
		t.Fatalf("Bash cannot write the root: %q", out)
	}
	if !strings.Contains(out, "sandbox") && !sandboxEnforced(t, s) {
		t.Skip("the sandbox cannot be enforced here; the binaries are protected by the kernel only")
	}
	for _, name := range []string{"awf", "awf-serve"} {
		p := filepath.Join(root, "bin", name)
		before, _ := os.ReadFile(p)
		_, _ = s.call(t, "Bash", map[string]any{"command": "echo '#!/bin/sh' > bin/" + name + "; rm -f bin/" + name + "; mv bin/" + name + " x"})
		after, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(before, after) {
			t.Fatalf("Bash changed bin/%s (%v)", name, err)
		}
	}
}

// sandboxEnforced asks the activity-free way: a read-only step's Bash is offered only when the
// kernel can confine it, so the server's Bash description says whether it is sandboxed.
func sandboxEnforced(t *testing.T, s *server) bool {
	t.Helper()
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name == "Bash" {
			return strings.Contains(strings.ToLower(tl.Description), "sandbox")
		}
	}
	return false
}

// TestSlimCommandLine: awf-serve parses its command line without cobra, as awf's mcp-serve does:
// --version, both flag spellings, and usage errors with exit code 1 and one message.
func TestSlimCommandLine(t *testing.T) {
	run := func(args ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, serveBin, args...)
		cmd.Stdin = strings.NewReader("") // mcp-serve ends at EOF
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("awf-serve %v: %v", args, err)
		}
		return string(out), code
	}
	if out, code := run("--version"); code != 0 || !strings.HasPrefix(out, "awf-serve version ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if out, code := run("mcp-serve", "--help"); code != 0 || !strings.Contains(out, "-config") || !strings.Contains(out, "-turn") {
		t.Errorf("mcp-serve --help: exit %d, %q", code, out)
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, []byte(`{"root_dir":`+strconv.Quote(t.TempDir())+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"mcp-serve", "--config=" + cfg, "--turn=2"}, {"mcp-serve", "-config", cfg}} {
		if out, code := run(args...); code != 0 {
			t.Errorf("%v at EOF: exit %d, %q", args, code, out)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp-serve", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"mcp-serve", "--turn", "x"}, `invalid value "x" for flag -turn`},
		{[]string{"mcp-serve", "extra"}, `mcp-serve takes no arguments, got ["extra"]`},
		{[]string{"serve"}, `unknown command "serve"`},
		{[]string{"mcp-serve", "--config", filepath.Join(t.TempDir(), "missing.json")}, "USER.MCP_SERVE.CONFIG"},
	} {
		out, code := run(tt.args...)
		if code != 1 || !strings.Contains(out, tt.want) || strings.Count(out, tt.want) != 1 {
			t.Errorf("%v: exit %d, output %q, want exit 1 and %q once", tt.args, code, out, tt.want)
		}
	}
}
