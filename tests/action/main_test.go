// Package action_test runs the GitHub Action (action.yml at the repository root) as a runner
// would: each of its steps in order, with the variables and files a runner gives a step
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH, GITHUB_WORKSPACE, RUNNER_TEMP, …) and its
// inputs substituted, against a release archive made from the binaries under test. It checks the
// outputs, the job summary, the annotations and the SARIF (against the 2.1.0 schema in
// testdata), and lints action.yml and the example workflows with actionlint (pinned in
// tools/go.mod).
package action_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/tests/testkit"
)

var bins *testkit.Bins

func TestMain(m *testing.M) {
	testkit.Main(m.Run, false, &bins)
}

// action is the part of action.yml the runner reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name  string            `yaml:"name"`
			ID    string            `yaml:"id"`
			If    string            `yaml:"if"`
			Shell string            `yaml:"shell"`
			Run   string            `yaml:"run"`
			Uses  string            `yaml:"uses"`
			Env   map[string]string `yaml:"env"`
			Dir   string            `yaml:"working-directory"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

var inputExpr = regexp.MustCompile(`\$\{\{\s*inputs\.([a-z-]+)\s*\}\}`)

// runner is one job's worth of runner state.
type runner struct {
	t                            *testing.T
	workspace, temp, home        string
	output, summary, path, envFl string
	release                      string
}

func newRunner(t *testing.T, release string) *runner {
	if raceBuild {
		testkit.Skip(t, "under -race: the action's steps run other processes only, which make test already covers")
	}
	r := &runner{t: t, workspace: t.TempDir(), temp: t.TempDir(), home: t.TempDir(), release: release}
	files := t.TempDir()
	r.output, r.summary, r.path, r.envFl = filepath.Join(files, "output"), filepath.Join(files, "summary"), filepath.Join(files, "path"), filepath.Join(files, "env")
	for _, f := range []string{r.output, r.summary, r.path, r.envFl} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// stepResult is what one step printed and how it ended.
type stepResult struct {
	name   string
	stdout string
	code   int
}

// run runs the action's steps with inputs: a step after a failed one runs only under always().
func (r *runner) run(inputs map[string]string, extraEnv ...string) []stepResult {
	t := r.t
	data, err := os.ReadFile(filepath.Join(testkit.RepoRoot(), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using = %q, want composite", a.Runs.Using)
	}
	value := func(name string) string {
		if v, ok := inputs[name]; ok {
			return v
		}
		if in, ok := a.Inputs[name]; ok {
			return in.Default
		}
		t.Fatalf("action.yml has no input %q", name)
		return ""
	}
	expand := func(s string) string {
		s = strings.ReplaceAll(s, "${{ github.action_repository || 'awf-dev/awf' }}", "awf-dev/awf")
		return inputExpr.ReplaceAllStringFunc(s, func(m string) string { return value(inputExpr.FindStringSubmatch(m)[1]) })
	}
	var results []stepResult
	failed := false
	for _, st := range a.Runs.Steps {
		if st.Uses != "" {
			continue // actions/upload-artifact: GitHub's, not ours
		}
		if failed && !strings.Contains(st.If, "always()") {
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q: shell %q, want bash (runs on Linux and macOS runners)", st.Name, st.Shell)
		}
		res := r.step(st.Name, expand(st.Run), expand(st.Dir), expandEnv(st.Env, expand), extraEnv)
		results = append(results, res)
		failed = failed || res.code != 0
	}
	return results
}

func expandEnv(env map[string]string, expand func(string) string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+expand(v))
	}
	return out
}

// step runs one `run:` under bash as the runner does: PATH grown by GITHUB_PATH, the runner's
// variables set, a temp HOME and TMPDIR.
func (r *runner) step(name, script, dir string, env, extra []string) stepResult {
	t := r.t
	path := os.Getenv("PATH")
	if b, _ := os.ReadFile(r.path); len(b) > 0 {
		for _, p := range strings.Fields(string(b)) {
			path = p + ":" + path
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = filepath.Join(r.workspace, dir)
	cmd.Env = append([]string{"PATH=" + path, "HOME=" + r.home, "TMPDIR=" + r.temp, "RUNNER_TEMP=" + r.temp,
		"GITHUB_ACTIONS=true", "CI=true", "GITHUB_WORKSPACE=" + r.workspace, "GITHUB_ACTION_PATH=" + testkit.RepoRoot(),
		"GITHUB_OUTPUT=" + r.output, "GITHUB_STEP_SUMMARY=" + r.summary, "GITHUB_PATH=" + r.path, "GITHUB_ENV=" + r.envFl,
		"AWF_DOWNLOAD_BASE=file://" + r.release, "XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache")}, env...)
	cmd.Env = append(cmd.Env, extra...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("step %q: %v", name, err)
	}
	return stepResult{name, out.String(), code}
}

// outputs parses GITHUB_OUTPUT's name<<delimiter blocks.
func (r *runner) outputs() map[string]string {
	b, err := os.ReadFile(r.output)
	if err != nil {
		r.t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

// release writes awf_linux_<arch>.tar.gz and SHA256SUMS as `make dist` lays them out, from the
// binaries under test.
func release(t *testing.T, corrupt bool) string {
	dir := t.TempDir()
	name := fmt.Sprintf("awf_%s_%s", goos(), goarch())
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ src, dst string }{{bins.AWF, "awf"}, {bins.Serve, "awf-serve"}} {
		data, err := os.ReadFile(f.src)
		if err != nil {
			t.Fatal(err)
		}
		_ = tw.WriteHeader(&tar.Header{Name: name + "/" + f.dst, Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg})
		_, _ = tw.Write(data)
	}
	_ = tw.Close()
	_ = gz.Close()
	sum := sha256.Sum256(buf.Bytes())
	if corrupt {
		sum[0] ^= 1
	}
	if err := os.WriteFile(filepath.Join(dir, name+".tar.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sums := hex.EncodeToString(sum[:]) + "  " + name + ".tar.gz\n"
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func goos() string {
	out, _ := exec.Command("uname", "-s").Output()
	return strings.ToLower(strings.TrimSpace(string(out)))
}

func goarch() string {
	out, _ := exec.Command("uname", "-m").Output()
	if m := strings.TrimSpace(string(out)); m == "aarch64" || m == "arm64" {
		return "arm64"
	}
	return "amd64"
}
