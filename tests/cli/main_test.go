// Package cli_test runs the real awf binary as a user would: it builds bin/awf once, then drives
// `awf validate` and `awf run` through exec, asserting output, exit codes and the process table.
package cli_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

var (
	bins              *testkit.Bins
	awfBin, pluginDir string
)

func TestMain(m *testing.M) {
	testkit.Main(func() int {
		awfBin, pluginDir = bins.AWF, bins.Plugins
		return m.Run()
	}, true, &bins)
}

// result of one awf invocation.
type result struct {
	stdout, stderr string
	code           int
}

// awf runs the binary in dir with args and extra environment.
func awf(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, awfBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running awf: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

// project makes a temp project with .awf/workflows holding the given files.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, ".awf", "workflows", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func repoRoot(t *testing.T) string {
	t.Helper()
	return testkit.RepoRoot()
}
