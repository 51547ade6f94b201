package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

func TestRunWithTheProxy(t *testing.T) {
	h := clitest.New(t)
	check := h.Watch(Name)
	req := h.Request("read marker.txt", h.Options("testdata/success.json", map[string]any{"model": "opus",
		"env": map[string]any{"DISABLE_TELEMETRY": "0", "ENABLE_TOOL_SEARCH": "true"}}), h.Attach(true, "Read", "Bash"))
	p := New(h.Config("ANTHROPIC_API_KEY=sk-test"))
	if p.Name() != "claude" {
		t.Fatal(p.Name())
	}
	out, err := p.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Output, "MARKER-42") || out.SessionID == "" || out.CostUSD == 0 {
		t.Errorf("result = %+v", out)
	}
	rec := h.Read()
	mcp := filepath.Join(h.TempDir, "claude", "mcp.json")
	want := []string{"-p", "--output-format", "json", "--model", "opus", "--mcp-config", mcp, "--strict-mcp-config", "--tools", "",
		"--permission-mode", "dontAsk", "--allowedTools", "mcp__awf__Read", "mcp__awf__Bash", "--", "read marker.txt"}
	if !reflect.DeepEqual(rec.Args, want) {
		t.Errorf("argv\n got %q\nwant %q", rec.Args, want)
	}
	for k, v := range map[string]string{
		"ENABLE_TOOL_SEARCH":                       "false", // isolation beats the step's env
		"DISABLE_TELEMETRY":                        "0",     // a quiet default the step may turn back
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"ANTHROPIC_API_KEY":                        "sk-test", // the user's credentials pass through
		"HOME":                                     h.Home,
	} {
		if rec.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, rec.Env[k], v)
		}
	}
	if rec.Cwd != h.Dir {
		t.Errorf("cwd = %s, want the step's dir %s", rec.Cwd, h.Dir)
	}
	if len(rec.Files) != 1 || !strings.Contains(rec.Files["claude/mcp.json"], `"command": "/opt/awf/bin/awf"`) {
		t.Errorf("private files = %v", rec.Files)
	}
	check()
}

func TestRunErrors(t *testing.T) {
	h := clitest.New(t)
	garbage := filepath.Join(t.TempDir(), "garbage")
	if err := os.WriteFile(garbage, []byte("<html>rate limited</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     map[string]any
		wantCode string
		wantText string
	}{
		{name: "is_error report, exit 1", opts: h.Options("testdata/api_error.json", map[string]any{"env": map[string]any{"FAKE_EXIT": "1"}}),
			wantCode: fault.ExecutionAgentError, wantText: "API Error: 400"},
		{name: "permission denials, exit 0", opts: h.Options("testdata/denied.json", nil),
			wantCode: fault.ExecutionAgentPermissionDenied, wantText: "mcp__awf__Read"},
		{name: "non-zero exit, no report", opts: h.Options("", map[string]any{"env": map[string]any{"FAKE_EXIT": "2", "FAKE_STDERR": "error: unknown option '--bogus'"}}),
			wantCode: fault.ExecutionAgentCLIFailed, wantText: "exited with status 2: error: unknown option '--bogus'"},
		{name: "garbage output", opts: h.Options(garbage, nil), wantCode: fault.ExecutionAgentBadOutput, wantText: "<html>rate limited"},
		{name: "binary missing", opts: map[string]any{"binary": filepath.Join(h.Dir, "no-claude")}, wantCode: fault.ExecutionAgentCLINotFound, wantText: "not an executable file"},
		{name: "bad option stops before running", opts: map[string]any{"binary": h.Binary, "modle": "x"}, wantCode: fault.UserAgentUnknownOption},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(h.Config()).Run(context.Background(), h.Request("p", tc.opts, nil))
			if fault.CodeOf(err) != tc.wantCode || !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("want %s containing %q, got %v", tc.wantCode, tc.wantText, err)
			}
		})
	}
}

func TestRunNotInstalled(t *testing.T) {
	h := clitest.New(t)
	cfg := h.Config()
	cfg.Environ = []string{"PATH=" + h.Dir, "HOME=" + h.Home}
	_, err := New(cfg).Run(context.Background(), h.Request("p", nil, nil))
	if fault.CodeOf(err) != fault.ExecutionAgentCLINotFound || !strings.Contains(err.Error(), "npm install -g @anthropic-ai/claude-code@"+VerifiedVersion) ||
		!strings.Contains(err.Error(), "AWF_CLAUDE_BIN") {
		t.Fatalf("got %v", err)
	}
}

func TestRunTimeoutKillsTheGroup(t *testing.T) {
	h := clitest.New(t)
	check := h.Watch(Name)
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	opts := h.Options("", map[string]any{"env": map[string]any{"FAKE_PIDFILE": pidfile, "FAKE_STUBBORN": "1"}})
	_, err := New(h.Config()).Run(ctx, h.Request("p", opts, h.Attach(true, "Read")))
	if fault.CodeOf(err) != fault.ExecutionAgentStopped || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want %s wrapping DeadlineExceeded, got %v", fault.ExecutionAgentStopped, err)
	}
	clitest.AssertGone(t, pidfile)
	check()
}
