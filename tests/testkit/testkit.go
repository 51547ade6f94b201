// Package testkit holds what awf's integration and end-to-end tests share: building the real
// binaries once per test binary, reading the process table, and an OTLP receiver that decodes
// real trace exports.
package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// RepoRoot is the module root.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Bins are binaries built for one test binary's run.
type Bins struct {
	Dir string
	// AWF is bin/awf built from ./cmd/awf; Serve is the slim awf-serve beside it, which awf
	// spawns for the agent steps it serves alone.
	AWF   string
	Serve string
	// Plugins is the directory holding the example plugins (echo, notes), with a trailing slash.
	Plugins string
}

// Build builds awf and, when plugins is set, the example plugins into a fresh temp dir. Call it
// from TestMain; Close removes the dir.
func Build(plugins bool) (*Bins, error) {
	dir, err := os.MkdirTemp("", "awf-test-bins-")
	if err != nil {
		return nil, err
	}
	b := &Bins{Dir: dir, AWF: filepath.Join(dir, "awf"), Serve: filepath.Join(dir, "awf-serve"), Plugins: filepath.Join(dir, "plugins") + "/"}
	for out, pkg := range map[string]string{b.AWF: "./cmd/awf", b.Serve: "./cmd/awf-serve"} {
		if err := GoBuild(out, pkg); err != nil {
			b.Close()
			return nil, err
		}
	}
	if plugins {
		if err := GoBuild(b.Plugins, "./examples/plugins/..."); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// GoBuild builds pkg into out from the module root, stripped like a release build (benchmarks
// measure the binary users run; stack traces survive stripping).
func GoBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
	// Static, as `make build` links what it installs: a cgo build is dynamically linked and
	// pays the loader at every start, which the cold-start benchmark would count.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Dir = RepoRoot()
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// Close removes the built binaries.
func (b *Bins) Close() { _ = os.RemoveAll(b.Dir) }

// isolateUserCache points XDG_CACHE_HOME into dir, so that children never write the real user
// cache (`awf mcp-serve` keeps its sandbox probe there), while the go command keeps its build
// cache, which would otherwise move too.
func isolateUserCache(dir string) {
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			_ = os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
	}
	_ = os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg-cache"))
}

// Main builds the binaries, runs the tests and cleans up; use it as the body of TestMain.
func Main(run func() int, plugins bool, into **Bins) {
	bins, err := Build(plugins)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*into = bins
	isolateUserCache(bins.Dir)
	code := run()
	bins.Close()
	os.Exit(code)
}

// Alive reports whether pid is a process of this machine that has not been reaped, zombies
// included: a zombie left behind is a leak too.
func Alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err == nil && len(b) > 0
}

// State returns the /proc stat line of pid, for failure messages.
func State(pid int) string {
	b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return strings.TrimSpace(string(b))
}
