package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

// The tests of this package that drive the real binary build it once, on first use, so the
// benchmarks, which run the engine as a library, do not pay for a build.
var (
	binsOnce sync.Once
	bins     *testkit.Bins
	binsErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bins != nil {
		bins.Close()
	}
	os.Exit(code)
}

// awfBin is bin/awf built from this tree.
func awfBin(t *testing.T) string {
	t.Helper()
	binsOnce.Do(func() { bins, binsErr = testkit.Build(false) })
	if binsErr != nil {
		t.Fatal(binsErr)
	}
	return bins.AWF
}

// project is a temp project holding one workflow, with a temp HOME and TMPDIR for the run.
type project struct {
	dir string
	env []string
}

func newProject(t *testing.T, name, body string) project {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, ".awf", "workflows", name+".yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return project{dir: dir, env: []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}}
}

// result of one awf invocation.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// awf runs the binary in the project with args, for at most a minute.
func (p project) awf(t *testing.T, args ...string) result {
	t.Helper()
	bin := awfBin(t) // built before the minute starts
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = p.dir, append(os.Environ(), p.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running awf: %v", err)
	}
	return r
}

// jsonRun is what `awf run --format json` prints, as far as these tests read it.
type jsonRun struct {
	RunID    string `json:"run_id"`
	Status   string `json:"status"`
	Terminal string `json:"terminal"`
	ExitCode int    `json:"exit_code"`
	Error    struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Steps []struct {
		Name       string `json:"name"`
		Status     string `json:"status"`
		Output     string `json:"output"`
		Within     string `json:"within"`
		Next       string `json:"next"`
		Iterations int    `json:"iterations"`
		Exhausted  bool   `json:"exhausted"`
		DurationMS int64  `json:"duration_ms"`
	} `json:"steps"`
}

func (p project) runJSON(t *testing.T, args ...string) (jsonRun, result) {
	t.Helper()
	r := p.awf(t, append(append([]string{"run"}, args...), "--format", "json")...)
	var doc jsonRun
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("run --format json: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	return doc, r
}

// outputs are the outputs of the steps named name, in the order they finished.
func (j jsonRun) outputs(name string) []string {
	var out []string
	for _, s := range j.Steps {
		if s.Name == name {
			out = append(out, s.Output)
		}
	}
	return out
}

// lineCounts reads how many lines each file of dir holds, by name.
func lineCounts(t *testing.T, dir string) map[string]int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = strings.Count(string(b), "\n")
	}
	return out
}

// gone waits up to 3 s for each pid written in the files of dir to leave the process table.
func gone(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		for deadline := time.Now().Add(3 * time.Second); testkit.Alive(pid) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if testkit.Alive(pid) {
			t.Errorf("process %d (%s) outlived the run: %s", pid, e.Name(), testkit.State(pid))
		}
	}
}

// lockedBuffer is an output buffer a test may read while the process writes to it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
