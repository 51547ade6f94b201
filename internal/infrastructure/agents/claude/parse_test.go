package claude

import (
	"os"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// The testdata files are real reports of claude 2.1.330 run against a scripted Anthropic
// Messages fake with awf mcp-serve attached (see the package doc).
func TestParseRecordedReports(t *testing.T) {
	tests := []struct {
		file       string
		exit       int
		wantCode   string
		wantOutput string
		wantText   string
		wantIn     int
		wantOut    int
		wantCost   bool
		wantSessID string
	}{
		{file: "success.json", wantOutput: "MARKER-42 secret file content", wantIn: 22, wantOut: 14, wantCost: true,
			wantSessID: "7dde549a-2aaa-4ff1-99c0-348735c87381"},
		{file: "denied.json", wantCode: fault.ExecutionAgentPermissionDenied, wantText: "claude refused 1 tool call(s) the model made: mcp__awf__Read",
			wantOutput: "Permission to use mcp__awf__Read has been denied", wantIn: 22, wantOut: 14, wantCost: true, wantSessID: "e162db99-0cad-478b-b916-ddadf250341c"},
		{file: "api_error.json", exit: 1, wantCode: fault.ExecutionAgentError, wantText: "API Error: 400 model not found: fail-model (success, api_error)",
			wantOutput: "API Error", wantSessID: ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			out, err := cli.Outcome(Name, cli.Result{ExitCode: tc.exit, Stdout: b}, parse)
			if fault.CodeOf(err) != tc.wantCode {
				t.Fatalf("want code %q, got %v", tc.wantCode, err)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q lacks %q", err, tc.wantText)
			}
			if !strings.Contains(out.Output, tc.wantOutput) || out.InputTokens != tc.wantIn || out.OutputTokens != tc.wantOut ||
				(out.CostUSD > 0) != tc.wantCost || (tc.wantSessID != "" && out.SessionID != tc.wantSessID) {
				t.Errorf("result = %+v", out)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := map[string]string{
		"not JSON":       "Error: something went wrong",
		"empty":          "",
		"wrong shape":    `{"type":"assistant","message":{}}`,
		"result missing": `{"type":"result","is_error":false}`,
	}
	for name, stdout := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := parse(cli.Result{Stdout: []byte(stdout)}); err == nil || fault.CodeOf(err) != "" {
				t.Fatalf("want a plain parse error (BAD_OUTPUT once mapped), got %v", err)
			}
		})
	}
}

func TestParseCountsCacheTokensAsInput(t *testing.T) {
	out, err := parse(cli.Result{Stdout: []byte(`{"type":"result","result":"ok","usage":{"input_tokens":3,"cache_creation_input_tokens":5,"cache_read_input_tokens":7,"output_tokens":2}}`)})
	if err != nil || out.InputTokens != 15 || out.OutputTokens != 2 || out.Output != "ok" {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestParseDeniedSeveralTimes(t *testing.T) {
	_, err := parse(cli.Result{Stdout: []byte(`{"type":"result","result":"","permission_denials":[
		{"tool_name":"mcp__awf__Bash","tool_input":{}},{"tool_name":"mcp__awf__Bash","tool_input":{}},{"tool_name":"Write","tool_input":{}}]}`)})
	if fault.CodeOf(err) != fault.ExecutionAgentPermissionDenied || !strings.Contains(err.Error(), "3 tool call(s) the model made: Write, mcp__awf__Bash (2 times)") {
		t.Fatalf("got %v", err)
	}
}
