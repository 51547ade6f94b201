// Package bench_test measures awf's MCP proxy against a floor: a bare go-sdk server whose tools
// do no I/O (tests/bench/floor), spawned and called over the same stdio pipes, through the go-sdk
// client and through a raw newline-JSON client. Every figure is reported as a ratio to the floor,
// measured in the same run over alternating rounds, so machine speed and load cancel out.
package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveBin is the slim awf-serve beside awfBin: what agent CLIs spawn for a step without plugin
// tools, so the per-call and cold-start rows measure it.
var awfBin, serveBin, floorBin, pluginDir string

// fixtureBin is the fixture MCP server of tests/mcpfixture, which the step benchmark bridges.
var fixtureBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "awf-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	awfBin, serveBin, floorBin, pluginDir = filepath.Join(dir, "awf"), filepath.Join(dir, "awf-serve"), filepath.Join(dir, "floor"), filepath.Join(dir, "plugins")+"/"
	fixtureBin = filepath.Join(dir, "mcpfixture")
	for out, pkg := range map[string]string{awfBin: "./cmd/awf", serveBin: "./cmd/awf-serve", floorBin: "./tests/bench/floor", pluginDir: "./examples/plugins/...",
		fixtureBin: "./tests/mcpfixture"} {
		if err := testkit.GoBuild(out, pkg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	// awf mcp-serve keeps its sandbox probe in the user cache: never the real one here.
	_ = os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg-cache"))
	if other := os.Getenv("AWF_BENCH_AWF"); other != "" {
		awfBin = other // another build of awf (an earlier commit, say), measured against the same floor
		serveBin = filepath.Join(filepath.Dir(other), "awf-serve")
		if _, err := os.Stat(serveBin); err != nil {
			serveBin = other // a build from before awf-serve existed
		}
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

type target struct {
	name string
	cmd  func() *exec.Cmd
	tool string
	args func(i int) map[string]any
}

func awfTarget(b *testing.B, root string) target {
	cfg := filepath.Join(b.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{"root_dir": root})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(root, "file4k.txt")
	line := strings.Repeat("y", 63) + "\n"
	if err := os.WriteFile(file, []byte(strings.Repeat(line, 64)), 0o644); err != nil {
		b.Fatal(err)
	}
	return target{"awf", func() *exec.Cmd { return exec.Command(awfBin, "mcp-serve", "--config", cfg) }, "Read",
		func(int) map[string]any { return map[string]any{"file_path": file} }}
}

func connect(b *testing.B, t target) (*mcp.ClientSession, *exec.Cmd) {
	cmd := t.cmd()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	sess, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return sess, cmd
}

func call(b *testing.B, sess *mcp.ClientSession, t target, i int) {
	res, err := sess.CallTool(context.Background(), &mcp.CallToolParams{Name: t.tool, Arguments: t.args(i)})
	if err != nil || res.IsError {
		b.Fatalf("%s call: %v %+v", t.name, err, res)
	}
}

// latencies returns sorted per-call latencies of n sequential calls.
func latencies(b *testing.B, sess *mcp.ClientSession, t target, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		start := time.Now()
		call(b, sess, t, i)
		out[i] = time.Since(start)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func pct(d []time.Duration, p float64) time.Duration { return d[int(float64(len(d)-1)*p)] }

func peakRSSMiB(pid int) float64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return -1
}

// BenchmarkPluginVsBuiltin reports the p50 latency of a plugin tool call (echo_echo, through
// mcp-serve, the router and go-plugin's gRPC) next to a built-in call (a 4 KiB Read) on the same
// server.
func BenchmarkPluginVsBuiltin(b *testing.B) {
	root := b.TempDir()
	builtin := awfTarget(b, root)
	plugins := filepath.Join(root, "plugins.yaml")
	if err := os.WriteFile(plugins, []byte("plugins:\n  echo:\n    command: "+pluginDir+"echo\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := filepath.Join(b.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{"root_dir": root, "plugins_file": plugins,
		"plugin_tools": []map[string]any{{"plugin": "echo", "expose": []string{"echo"}}}})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		b.Fatal(err)
	}
	builtin.cmd = func() *exec.Cmd { return exec.Command(awfBin, "mcp-serve", "--config", cfg) }
	plugin := target{"plugin", builtin.cmd, "echo_echo", func(int) map[string]any { return map[string]any{"text": strings.Repeat("x", 4096)} }}
	sess, _ := connect(b, builtin)
	defer sess.Close()
	n := max(b.N, 200)
	latencies(b, sess, plugin, 20)
	latencies(b, sess, builtin, 20)
	pl, bl := latencies(b, sess, plugin, n), latencies(b, sess, builtin, n)
	b.ReportMetric(float64(pct(pl, 0.5).Microseconds()), "plugin-p50-µs")
	b.ReportMetric(float64(pct(bl, 0.5).Microseconds()), "builtin-p50-µs")
	b.ReportMetric(float64(pct(pl, 0.99).Microseconds()), "plugin-p99-µs")
}
