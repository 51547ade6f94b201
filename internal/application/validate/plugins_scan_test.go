package validate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolscan"
)

// scanRegistry is pcFakeRegistry with a scan: findings by plugin, the held tools by plugin.
type scanRegistry struct {
	*pcFakeRegistry
	findings map[string][]toolscan.Finding
	held     map[string][]string
	fail     bool
	asked    []string
}

func (r *scanRegistry) PluginFindings(_ context.Context, plugin string, tools, others []string) ([]toolscan.Finding, []string, error) {
	r.asked = append(r.asked, plugin+":"+strings.Join(tools, ",")+"|"+strings.Join(others, ","))
	if r.fail {
		return nil, nil, errors.New("cannot list")
	}
	var fs []toolscan.Finding
	for _, f := range r.findings[plugin] {
		for _, t := range tools {
			if f.Tool == t {
				fs = append(fs, f)
			}
		}
	}
	return fs, r.held[plugin], nil
}

func finding(plugin, tool, rule string, sev toolscan.Severity) toolscan.Finding {
	return toolscan.Finding{Rule: rule, Severity: sev, Server: plugin, Tool: tool, Field: "description", Message: "m", Text: `x\u200B`}
}

func TestPluginCheckScan(t *testing.T) {
	reg := &scanRegistry{
		pcFakeRegistry: pcRegistry(),
		findings: map[string][]toolscan.Finding{
			"notes": {
				finding("notes", "get", "model-instructions", toolscan.High),
				finding("notes", "list", "credential-path", toolscan.High),
				finding("notes", "put", "hidden-characters", toolscan.High), // accepted: not held
				finding("notes", "get", "tool-reference", toolscan.Medium),
			},
			"echo": {finding("echo", "echo", "secret", toolscan.Medium)},
		},
		held: map[string][]string{"notes": {"get", "list"}},
	}
	w := pcWorkflow(pcAgent("s", false, pcEntry("notes", 10, "get", "l*", "put"), pcEntry("echo", 20, "echo"), pcEntry("off", 30, "x"), pcEntry("nope", 40, "x")))
	ds := PluginCheck(reg)(context.Background(), w)
	var got []string
	for _, d := range ds {
		if d.Code != fault.UserMCPProxyToolHeld && d.Code != fault.UserMCPProxyToolFinding {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s@%d %s", d.Severity, d.Code, d.Line, d.Message))
		if !strings.Contains(d.Hint, "--accept") {
			t.Errorf("hint %q", d.Hint)
		}
	}
	want := []string{
		`error USER.MCP_PROXY.TOOL_HELD@10 state "s": [high model-instructions] plugin notes, tool get, description: m: x\u200B (the tool is held out of the step)`,
		`warning USER.MCP_PROXY.TOOL_HELD@10 state "s": [high credential-path] plugin notes, tool list, description: m: x\u200B (the tool is left out of the step)`,
		`warning USER.MCP_PROXY.TOOL_FINDING@10 state "s": [high hidden-characters] plugin notes, tool put, description: m: x\u200B`,
		`warning USER.MCP_PROXY.TOOL_FINDING@10 state "s": [medium tool-reference] plugin notes, tool get, description: m: x\u200B`,
		`warning USER.MCP_PROXY.TOOL_FINDING@20 state "s": [medium secret] plugin echo, tool echo, description: m: x\u200B`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a := strings.Join(reg.asked, " "); a != "notes:get,list,put|echo echo:echo|notes" {
		t.Errorf("asked %s", a)
	}
}

func TestPluginCheckScanFailureIsLeftToTheOperationsCheck(t *testing.T) {
	reg := &scanRegistry{pcFakeRegistry: pcRegistry(), fail: true}
	ds := PluginCheck(reg)(context.Background(), pcWorkflow(pcAgent("s", false, pcEntry("notes", 10, "get"))))
	if len(ds) != 0 || len(reg.asked) != 1 {
		t.Errorf("%v %v", ds, reg.asked)
	}
}
