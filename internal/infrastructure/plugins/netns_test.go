package plugins

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// canUnshareNet says whether this kernel lets an unprivileged process create user and network
// namespaces (the test skips where it cannot).
func canUnshareNet(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/ns/net"); err != nil {
		t.Skip("no network namespaces here")
	}
	cmd := exec.Command("true")
	h := &Host{opts: Options{NoNetwork: true}}
	setProcAttr(cmd)
	if err := h.isolateNetwork(cmd); err != nil {
		t.Skip(err)
	}
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot create user and network namespaces: %v", err)
	}
}

// netprobeHost is a host over the netprobe test plugin.
func netprobeHost(t *testing.T, noNetwork bool) *Host {
	t.Helper()
	bin := plugintest.Netprobe(t, t.TempDir())
	root, file := plugintest.Project(t, "plugins:\n  netprobe:\n    command: "+bin+"\n")
	h := New(Options{Root: root, File: file, NoNetwork: noNetwork})
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func TestNoNetworkPluginCannotReachLoopback(t *testing.T) {
	canUnshareNet(t)
	t.Setenv("TMPDIR", t.TempDir())
	tcp, udp := plugintest.Loopback(t)
	args, _ := json.Marshal(map[string]string{"tcp": tcp, "udp": udp.LocalAddr().String()})
	for _, tc := range []struct {
		noNetwork bool
		want      string
	}{
		{false, "tcp: ok\nudp: ok"},
		{true, "network is unreachable"},
	} {
		h := netprobeHost(t, tc.noNetwork)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := h.Execute(ctx, "netprobe", "dial", args)
		cancel()
		if err != nil {
			t.Fatalf("noNetwork=%v: %v", tc.noNetwork, err)
		}
		out := res.JoinedText()
		if !strings.Contains(out, tc.want) {
			t.Fatalf("noNetwork=%v: %q, want %q", tc.noNetwork, out, tc.want)
		}
		if tc.noNetwork && (strings.Contains(out, "tcp: ok") || strings.Contains(out, "udp: ok")) {
			t.Fatalf("a plugin without network reached the loopback: %q", out)
		}
		if tc.noNetwork {
			continue
		}
		// The datagram arrived: the plugin with network really used it.
		_ = udp.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 16)
		if n, _, err := udp.ReadFrom(buf); err != nil || string(buf[:n]) != "netprobe" {
			t.Fatalf("the UDP datagram did not arrive: %q %v", buf[:n], err)
		}
	}
}

func TestNoNetworkStdioMCPServerGetsItsOwnNetworkNamespace(t *testing.T) {
	canUnshareNet(t)
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	own, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Skip(err)
	}
	for _, noNetwork := range []bool{false, true} {
		root, file := plugintest.Project(t, "plugins:\n  fx:\n    type: mcp\n    command: "+bin+"\n")
		h := New(Options{Root: root, File: file, NoNetwork: noNetwork})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := h.Operations(ctx, "fx"); err != nil {
			cancel()
			t.Fatalf("noNetwork=%v: %v", noNetwork, err)
		}
		cancel()
		st, err := h.Status("fx")
		if err != nil || st.PID == 0 {
			t.Fatalf("status %+v %v", st, err)
		}
		ns, err := os.Readlink("/proc/" + strconv.Itoa(st.PID) + "/ns/net")
		_ = h.Close()
		if err != nil {
			t.Fatal(err)
		}
		if (ns != own) != noNetwork {
			t.Fatalf("noNetwork=%v: the server's network namespace is %s, awf's %s", noNetwork, ns, own)
		}
	}
}

func TestNoNetworkRefusesRemoteMCP(t *testing.T) {
	root, file := plugintest.Project(t, "plugins:\n  remote:\n    type: mcp\n    url: http://127.0.0.1:1/mcp\n")
	h := New(Options{Root: root, File: file, NoNetwork: true})
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := h.Operations(ctx, "remote")
	if fault.CodeOf(err) != fault.UserSandboxRemotePlugin || !strings.Contains(err.Error(), "network: false") {
		t.Fatalf("remote MCP under no network: %v", err)
	}
	decls, err := h.Plugins(ctx)
	if err != nil || len(decls) != 1 || !decls[0].Remote {
		t.Fatalf("decls %+v %v", decls, err)
	}
	if err := (&Host{}).refuseRemote(Spec{Type: TypeMCP, MCP: MCPSpec{URL: "http://x"}}); err != nil {
		t.Fatalf("with network, a remote server is allowed: %v", err)
	}
}
