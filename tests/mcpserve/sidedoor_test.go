package mcpserve_test

import (
	"net"
	"os"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/pluginsock"
)

// dialEnv makes the test binary a unix socket client (exit 0 connected, 3 refused): what a
// model's command would run against a plugin's socket (grpcurl, nc -U, python).
const dialEnv = "AWF_TEST_DIAL_UNIX"

func init() {
	if path := os.Getenv(dialEnv); path != "" {
		c, err := net.Dial("unix", path)
		if err != nil {
			os.Exit(3)
		}
		c.Close()
		os.Exit(0)
	}
}

// pluginSockets are the unix sockets the host's /proc/net/unix lists under dir.
func pluginSockets(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 8 && strings.HasPrefix(f[7], dir+"/") {
			out = append(out, f[7])
		}
	}
	return out
}

// TestPluginSocketsOutOfBashReach: a read step's sandboxed Bash cannot connect to the gRPC
// socket of a plugin the step runs (which would take notes.put, an operation the step does
// not expose): go-plugin makes it under pluginsock.Dir, which the sandbox hides.
func TestPluginSocketsOutOfBashReach(t *testing.T) {
	cfg := pluginConfig(t, nil)
	cfg["plugin_tools"] = []map[string]any{{"plugin": "notes", "expose": []string{"get"}}}
	s := sandboxed(t, cfg)
	s.call(t, "notes_get", map[string]any{"key": "k"}) // the plugin runs from here on
	socks := pluginSockets(t, pluginsock.Dir())
	if len(socks) == 0 {
		t.Fatalf("no plugin socket under %s: go-plugin put it elsewhere", pluginsock.Dir())
	}
	self, _ := os.Executable()
	var script strings.Builder
	for _, sock := range socks {
		script.WriteString(dialEnv + "=" + sock + " " + self + "; echo exit=$?; ")
	}
	out, _ := s.call(t, "Bash", map[string]any{"command": script.String()})
	if strings.Count(out, "exit=3") != len(socks) {
		t.Fatalf("sandboxed Bash reached a plugin socket: %s", out)
	}
	// The control: outside the sandbox the same client connects.
	c, err := net.Dial("unix", socks[0])
	if err != nil {
		t.Fatalf("control: %v", err)
	}
	c.Close()
}
