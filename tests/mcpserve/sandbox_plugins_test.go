package mcpserve_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// TestNoNetworkStepPluginsHaveNoNetwork: a step with sandbox network: false gets plugins that
// cannot reach even the test's loopback over TCP or UDP; the same step with network: true can.
func TestNoNetworkStepPluginsHaveNoNetwork(t *testing.T) {
	if st := sandbox.Probe(awfBin); !st.Enforced {
		t.Skipf("the sandbox cannot be enforced here: %s", st.Reason)
	}
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	bin := filepath.Join(dir, "netprobe")
	build := exec.Command("go", "build", "-o", bin, "./tests/netprobe")
	build.Dir = plugintest.RepoRoot(t)
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./tests/netprobe: %v\n%s", err, msg)
	}
	file := filepath.Join(dir, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("plugins:\n  netprobe:\n    command: "+bin+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer tcp.Close()
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer udp.Close()
	args := map[string]any{"tcp": tcp.Addr().String(), "udp": udp.LocalAddr().String()}
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
