package validate

import (
	"context"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestPluginCheckRemoteWithoutNetwork(t *testing.T) {
	reg := pcRegistry()
	reg.decls = append(reg.decls, ports.PluginDecl{Name: "web", Remote: true})
	reg.ops["web"] = []string{"fetch"}
	for _, tc := range []struct {
		sb   workflow.SandboxSettings
		want bool
	}{
		{workflow.SandboxSettings{Mode: "auto", Network: false}, true},
		{workflow.SandboxSettings{Mode: "required", Network: false}, true},
		{workflow.SandboxSettings{Mode: "off", Network: false}, false},
		{workflow.SandboxSettings{Mode: "auto", Network: true}, false},
		{workflow.SandboxSettings{}, false},
	} {
		s := pcAgent("ask", false, pcEntry("web", 3, "fetch"), pcEntry("echo", 5, "echo"))
		s.Agent().MCPProxy.Sandbox = tc.sb
		ds := PluginCheck(reg)(context.Background(), pcWorkflow(s))
		var got []string
		for _, d := range ds {
			got = append(got, d.Code)
		}
		if tc.want {
			pcAssert(t, ds, []pcWant{{fault.UserSandboxRemotePlugin, 3, 17, "network: false cannot cut off"}})
		} else if len(ds) != 0 {
			t.Errorf("%+v: unexpected %v", tc.sb, got)
		}
	}
}
