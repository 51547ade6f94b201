// Package plugintest builds awf's example plugins for tests: real binaries from
// examples/plugins, built once per test process with `go build`, plus helpers to write a
// project's plugins.yaml, to find running plugin processes in /proc, and to build the test
// programs (tests/mcpfixture, tests/netprobe) and the loopback listeners some tests need.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	dir   string
	built = map[string]string{}
)

// Build returns the paths of the example plugins named (directories of examples/plugins),
// building each once per test process. It fails the test when go or the build fails.
func Build(tb testing.TB, names ...string) map[string]string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if dir == "" {
		d, err := os.MkdirTemp("", "awf-plugins-")
		if err != nil {
			tb.Fatalf("temp dir for plugin binaries: %v", err)
		}
		dir = d
	}
	out := map[string]string{}
	for _, name := range names {
		if p, ok := built[name]; ok {
			out[name] = p
			continue
		}
		bin := build(tb, dir, name)
		built[name] = bin
		out[name] = bin
	}
	return out
}

// BuildTo builds the example plugins named into dir, without caching: for packages that have
// no TestMain to call Cleanup, with dir a t.TempDir() shared by their tests.
func BuildTo(tb testing.TB, dir string, names ...string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	for _, name := range names {
		out[name] = build(tb, dir, name)
	}
	return out
}

func build(tb testing.TB, dir, name string) string {
	tb.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./examples/plugins/"+name)
	cmd.Dir = RepoRoot(tb)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./examples/plugins/%s: %v\n%s", name, err, msg)
	}
	return bin
}

// Cleanup removes the built binaries; call it from TestMain after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
		dir = ""
		built = map[string]string{}
	}
}

// RepoRoot is the module root.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("cannot locate plugintest's source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", "..", ".."))
}

// Project makes a temp project root whose .awf/plugins.yaml holds manifest, and returns the
// root and the file's path.
func Project(tb testing.TB, manifest string) (root, file string) {
	tb.Helper()
	root = tb.TempDir()
	file = filepath.Join(root, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root, file
}

// Processes returns the pids of processes running the executable exe, read from /proc. It
// skips the test where /proc is missing. Zombies have no exe link; see Zombies.
func Processes(tb testing.TB, exe string) []int {
	tb.Helper()
	var pids []int
	for _, pid := range allPIDs(tb) {
		target, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
		if err == nil && strings.TrimSuffix(target, " (deleted)") == exe {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Zombies returns the pids of this process's children that exited and were never reaped.
func Zombies(tb testing.TB) []int {
	tb.Helper()
	var pids []int
	self := os.Getpid()
	for _, pid := range allPIDs(tb) {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			continue
		}
		state, ppid, ok := parseStat(string(stat))
		if ok && state == 'Z' && ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

func allPIDs(tb testing.TB) []int {
	tb.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		tb.Skipf("no /proc to inspect processes: %v", err)
	}
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// parseStat reads the state and parent pid of /proc/<pid>/stat, which follow the
// parenthesised command name: "pid (comm) S ppid ...".
func parseStat(stat string) (state byte, ppid int, ok bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return f[0][0], ppid, err == nil
}
