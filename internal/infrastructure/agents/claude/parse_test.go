package claude

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

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
