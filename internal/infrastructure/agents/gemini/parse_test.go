package gemini

import (
	"os"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The testdata files are real output of gemini 0.61.0 against a scripted Gemini API fake with
// an MCP server attached: success.json is stdout of a run that called mcp_awf_Read (five
// routing side requests plus two main ones); the .stderr files end with the error report.
func TestParseRecordedOutput(t *testing.T) {
	tests := []struct {
		name       string
		res        cli.Result
		wantCode   string
		wantText   string
		wantOutput string
		wantIn     int
		wantOut    int
		wantSess   string
	}{
		{name: "success", res: cli.Result{Stdout: read(t, "success.json")},
			wantOutput: "MARKER-42 secret file content", wantIn: 133, wantOut: 42, wantSess: "6dcdb984-5fee-4967-b7fb-3b9ddc45df23"},
		{name: "API error after a stack trace", res: cli.Result{ExitCode: 144, Stderr: string(read(t, "api_error.stderr"))},
			wantCode: fault.ExecutionAgentError, wantText: `model fail not found`, wantSess: "e35a2448-b2d2-4a1e-b1fa-7b15639a68cf"},
		{name: "auth error", res: cli.Result{ExitCode: 41, Stderr: string(read(t, "auth_error.stderr"))},
			wantCode: fault.ExecutionAgentError, wantText: "Invalid auth method selected. (code 41) (hint: authentication failed: set GEMINI_API_KEY"},
		{name: "exit 55 without a report", res: cli.Result{ExitCode: 55, Stderr: "Gemini CLI is not running in a trusted directory"},
			wantCode: fault.ExecutionAgentCLIFailed, wantText: "exited with status 55: Gemini CLI is not running in a trusted directory"},
		{name: "garbage", res: cli.Result{Stdout: []byte("Loaded cached credentials.\n")}, wantCode: fault.ExecutionAgentBadOutput},
		{name: "JSON without response", res: cli.Result{Stdout: []byte(`{"session_id":"x"}`)}, wantCode: fault.ExecutionAgentBadOutput, wantText: `no "response"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := cli.Outcome(Name, tc.res, parse)
			if fault.CodeOf(err) != tc.wantCode {
				t.Fatalf("want %q, got %v", tc.wantCode, err)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q lacks %q", err, tc.wantText)
			}
			if !strings.Contains(out.Output, tc.wantOutput) || out.InputTokens != tc.wantIn || out.OutputTokens != tc.wantOut ||
				(tc.wantSess != "" && out.SessionID != tc.wantSess) {
				t.Errorf("result = %+v", out)
			}
		})
	}
}

func TestLastObject(t *testing.T) {
	tests := map[string]bool{
		"noise\n{\n  \"error\": {\"message\": \"x\"}\n}": true,
		"{\"error\": {\"message\": \"x\"}}":              true,
		"noise {\n  \"a\": {\n  }\n}\n{\"error\": {}}":   true,
		"just text":                 false,
		"trace {\n  status: 400\n}": false,
		"{\n  \"error\": {\"message\": \"unterminated\"": false,
	}
	for in, want := range tests {
		if _, ok := lastObject(in); ok != want {
			t.Errorf("lastObject(%q) = %v, want %v", in, ok, want)
		}
	}
}
