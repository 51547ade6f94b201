package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestEgressCheck(t *testing.T) {
	at := func(line int) fault.Position { return fault.Position{Line: line, Column: 9} }
	for _, tc := range []struct {
		name  string
		sb    workflow.SandboxSettings
		wants []string // message parts, one per diagnostic, in order
		lines []int
	}{
		{"valid lists", workflow.SandboxSettings{Mode: "auto", Egress: &workflow.Egress{Allow: []string{"api.example.com:443", "*.pypi.org"}, Deny: []string{"10.0.0.1"}}}, nil, nil},
		{"no list", workflow.SandboxSettings{Mode: "off", Network: true}, nil, nil},
		{"sandbox off", workflow.SandboxSettings{Mode: "off", Egress: &workflow.Egress{Allow: []string{"a.example"}}}, []string{"its sandbox is off"}, []int{2}},
		{"bad entries", workflow.SandboxSettings{Mode: "required", Egress: &workflow.Egress{
			Allow: []string{"ok.example", "a.*.example", "x.example:70000"}, Deny: []string{"bad host"}}},
			[]string{"allow of state \"ask\": \"a.*.example\": a wildcard may only open", "out of range", "deny of state \"ask\""}, []int{11, 12, 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := pcAgent("ask", false)
			m := s.Agent().MCPProxy
			m.Sandbox = tc.sb
			m.ValuePos = map[string]fault.Position{"sandbox.network": at(2), "sandbox.network.allow[1]": at(11), "sandbox.network.allow[2]": at(12), "sandbox.network.deny[0]": at(20)}
			ds := EgressCheck()(context.Background(), pcWorkflow(s))
			if len(ds) != len(tc.wants) {
				t.Fatalf("diagnostics %v, want %d", ds, len(tc.wants))
			}
			for i, d := range ds {
				if d.Code != fault.UserSandboxInvalid || !strings.Contains(d.Message, tc.wants[i]) || d.Line != tc.lines[i] || d.Hint == "" {
					t.Errorf("diagnostic %d: %+v, want %q at line %d", i, d, tc.wants[i], tc.lines[i])
				}
			}
		})
	}
}

func TestPluginCheckRemoteWithEgress(t *testing.T) {
	reg := pcRegistry()
	reg.decls = append(reg.decls, ports.PluginDecl{Name: "web", Remote: true, URL: "https://mcp.example.com/mcp"})
	reg.ops["web"] = []string{"fetch"}
	for _, tc := range []struct {
		allow, deny []string
		want        bool
	}{
		{[]string{"mcp.example.com"}, nil, false},
		{[]string{"*.example.com:443"}, nil, false},
		{[]string{"mcp.example.com:80"}, nil, true},
		{[]string{"other.example"}, nil, true},
		{[]string{"*.example.com"}, []string{"mcp.example.com"}, true},
		{[]string{"a.*.bad"}, nil, true},
	} {
		s := pcAgent("ask", false, pcEntry("web", 3, "fetch"))
		s.Agent().MCPProxy.Sandbox = workflow.SandboxSettings{Mode: "auto", Egress: &workflow.Egress{Allow: tc.allow, Deny: tc.deny}}
		ds := PluginCheck(reg)(context.Background(), pcWorkflow(s))
		if tc.want {
			pcAssert(t, ds, []pcWant{{fault.UserSandboxRemotePlugin, 3, 17, "network allow list does not allow"}})
		} else if len(ds) != 0 {
			t.Errorf("allow %v deny %v: unexpected %v", tc.allow, tc.deny, ds)
		}
	}
}
