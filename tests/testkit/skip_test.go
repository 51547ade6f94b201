package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

func TestSkipLineIsOneLine(t *testing.T) {
	got := SkipLine("example.com/p", "TestX/sub", "  not installed\n\trun install.sh ")
	want := "SKIP example.com/p TestX/sub: not installed run install.sh\n"
	if got != want {
		t.Fatalf("SkipLine = %q, want %q", got, want)
	}
}

// TestSkipVisibleThroughGoTest runs a package whose test skips through `go test` in package-list
// mode, where the go command prints nothing of a passing package but its "ok" line, and checks
// that the skip line reaches the go command's stderr, on a second run too (no cached replay).
func TestSkipVisibleThroughGoTest(t *testing.T) {
	if testing.Short() {
		Skip(t, "builds and runs a test binary")
	}
	const pkg = "github.com/awf-dev/awf/tests/testkit/testdata/skipper"
	want := "SKIP " + pkg + " TestSkipped: the planted reason, split over two lines\n"
	for run := 1; run <= 2; run++ {
		cmd := exec.Command("go", "test", "./testdata/skipper")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("run %d: go test: %v\nstdout:\n%s\nstderr:\n%s", run, err, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("run %d: go test stderr lacks %q\nstdout:\n%s\nstderr:\n%s", run, want, stdout.String(), stderr.String())
		}
		if strings.Contains(stdout.String(), "(cached)") {
			t.Errorf("run %d: a package that skipped was served from the test cache:\n%s", run, stdout.String())
		}
		if strings.Contains(stderr.String(), "TestPasses") {
			t.Errorf("run %d: a passing test was reported as skipped:\n%s", run, stderr.String())
		}
	}
	// With -v the usual "--- SKIP" line carries the reason: no second copy.
	out, err := exec.Command("go", "test", "-count=1", "-v", "./testdata/skipper").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -v: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "SKIP "+pkg) {
		t.Errorf("go test -v printed the skip line as well as --- SKIP:\n%s", out)
	}
	if !strings.Contains(string(out), "--- SKIP: TestSkipped") {
		t.Errorf("go test -v lacks the --- SKIP line:\n%s", out)
	}
}
