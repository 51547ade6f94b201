package mcpserve_test

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
)

// TestNoNetworkStepPluginsHaveNoNetwork: a step with sandbox network: false gets plugins that
// cannot reach even the test's loopback over TCP or UDP; the same step with network: true can.
func TestNoNetworkStepPluginsHaveNoNetwork(t *testing.T) {
	sandboxtest.Require(t, awfBin)
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.Netprobe(t, t.TempDir())
	_, file := plugintest.Project(t, "plugins:\n  netprobe:\n    command: "+bin+"\n")
	tcp, udp := plugintest.Loopback(t)
	args := map[string]any{"tcp": tcp, "udp": udp.LocalAddr().String()}
	for _, network := range []bool{true, false} {
		s := start(t, map[string]any{
			"plugins_file": file,
			"plugin_tools": []map[string]any{{"plugin": "netprobe", "expose": []string{"dial"}}},
			"sandbox":      map[string]any{"mode": "required", "network": network},
		})
		out, isErr := s.call(t, "netprobe_dial", args)
		if isErr {
			t.Fatalf("network=%v: %s", network, out)
		}
		reached := strings.Contains(out, "tcp: ok") || strings.Contains(out, "udp: ok")
		if network != reached || (!network && !strings.Contains(out, "unreachable")) {
			t.Fatalf("network=%v: the plugin said %q", network, out)
		}
	}
}
