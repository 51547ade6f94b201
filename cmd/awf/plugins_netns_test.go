package main

import (
	"os"
	"testing"

	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

func TestPluginsNoNetwork(t *testing.T) {
	self, _ := os.Executable()
	enforced := sandbox.Probe(self).Enforced
	for _, tc := range []struct {
		sb   toolset.Sandbox
		want bool
	}{
		{toolset.Sandbox{}, false},
		{toolset.DefaultSandbox(), false},
		{toolset.Sandbox{Mode: "off", Network: false}, false},
		{toolset.Sandbox{Mode: "required", Network: true}, false},
		{toolset.Sandbox{Mode: "required", Network: false}, true},
		{toolset.Sandbox{Mode: "auto", Network: false}, enforced},
	} {
		if got := pluginsNoNetwork(toolset.Spec{Sandbox: tc.sb}); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.sb, got, tc.want)
		}
	}
}
