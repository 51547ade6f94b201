// Package awfrun_test is the end-to-end test of agent steps: `bin/awf run` drives each real agent
// CLI (claude, gemini, codex, opencode, installed from npm by tests/e2e/install.sh) against the
// project's fake model server, with awf's MCP proxy attached as the step's only tools.
package awfrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

const finalText = "E2E-FINAL-ANSWER"

var (
	bins   *testkit.Bins
	awfBin string
)

func TestMain(m *testing.M) {
	testkit.Main(func() int {
		awfBin = bins.AWF
		return m.Run()
	}, false, &bins)
}

// cliDir finds the installed CLIs or skips loudly (fails under AWF_E2E_REQUIRE_CLIS=1).
func cliDir(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("AWF_AGENT_CLIS_BIN")
	if dir == "" {
		cache := os.Getenv("AWF_CACHE")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache", "awf")
		}
		dir = filepath.Join(cache, "agent-clis", "node_modules", ".bin")
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		msg := fmt.Sprintf("end-to-end test not run: the %s CLI is not installed in %s; run tests/e2e/install.sh (needs the npm registry) or set AWF_AGENT_CLIS_BIN", name, dir)
		if os.Getenv("AWF_E2E_REQUIRE_CLIS") != "" {
			t.Fatal(msg)
		}
		testkit.Skip(t, msg) // printed without -v too, on the go command's stderr
	}
	return dir
}

// agentCLI says how each CLI is pointed at the fake model: step options and environment.
type agentCLI struct {
	name    string
	options func(fakeURL string) map[string]any
	env     func(t *testing.T, fakeURL, home string) []string
	// prefix/sep spell awf's tools as the model sees them, e.g. mcp__awf__Read.
	toolName func(tool string) string
	extra    []string // tools the CLI offers that cannot be switched off
}

var clis = []agentCLI{
	{
		name:    "claude",
		options: func(string) map[string]any { return map[string]any{} },
		env: func(_ *testing.T, u, _ string) []string {
			return []string{"ANTHROPIC_BASE_URL=" + u, "ANTHROPIC_API_KEY=sk-e2e"}
		},
		toolName: func(s string) string { return "mcp__awf__" + s },
	},
	{
		name: "gemini",
		options: func(u string) map[string]any {
			return map[string]any{"model": "gemini-2.5-flash", "base_url": u}
		},
		env:      func(_ *testing.T, _, _ string) []string { return []string{"GEMINI_API_KEY=e2e-key"} },
		toolName: func(s string) string { return "mcp_awf_" + s },
	},
	{
		name: "codex",
		options: func(u string) map[string]any {
			return map[string]any{"model": "fake-model", "model_provider": "fakemodel", "base_url": u + "/v1", "env_key": "FAKEMODEL_API_KEY"}
		},
		env:      func(_ *testing.T, _, _ string) []string { return []string{"FAKEMODEL_API_KEY=sk-e2e"} },
		toolName: func(s string) string { return "mcp__awf/" + s },
		extra:    []string{"list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource", "request_user_input"},
	},
	{
		name:    "opencode",
		options: func(string) map[string]any { return map[string]any{"model": "fake/fake-model"} },
		env: func(t *testing.T, u, home string) []string {
			// The user's own opencode config names the provider; awf keeps it and adds the proxy.
			cfg := filepath.Join(home, "opencode-user.json")
			body, _ := json.Marshal(map[string]any{
				"provider": map[string]any{"fake": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "fake",
					"options": map[string]any{"baseURL": u + "/v1", "apiKey": "sk-e2e"},
					"models":  map[string]any{"fake-model": map[string]any{"name": "fake-model"}},
				}},
				"model": "fake/fake-model", "small_model": "fake/fake-model",
			})
			if err := os.WriteFile(cfg, body, 0o600); err != nil {
				t.Fatal(err)
			}
			// opencode installs a plugin from npm in the background; send that to the fake.
			return []string{"OPENCODE_CONFIG=" + cfg, "npm_config_registry=" + u + "/npm-registry/"}
		},
		toolName: func(s string) string { return "awf_" + s },
	},
}

// project is one run's world: a project dir with the workflow and a marker file, a HOME of its
// own, and the fake model.
type project struct {
	dir, home, marker, bashMarker, file string
	fake                                *fakemodel.Server
	env                                 []string
}

func newProject(t *testing.T, c agentCLI, script func(p *project) fakemodel.Script, proxy string) *project {
	t.Helper()
	bin := cliDir(t, c.name)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	p := &project{dir: filepath.Join(root, "proj"), home: filepath.Join(root, "home")}
	must(t, os.MkdirAll(filepath.Join(p.dir, ".awf", "workflows"), 0o755))
	must(t, os.MkdirAll(p.home, 0o700))
	p.marker = fmt.Sprintf("MARKER-%s-%d", c.name, time.Now().UnixNano())
	p.bashMarker = "BASH-42-" + p.marker
	p.file = filepath.Join(p.dir, "secret.txt")
	must(t, os.WriteFile(p.file, []byte(p.marker+"\n"), 0o644))
	p.fake = fakemodel.Start(t, script(p))
	opts, _ := json.Marshal(c.options(p.fake.URL))
	wf := fmt.Sprintf(`name: e2e
states:
  initial: agent
  agent:
    type: agent
    provider: %s
    prompt: Read secret.txt, then run the command you are given.
    options: %s
    timeout: 4m
    mcp_proxy:
%s
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`, c.name, opts, proxy)
	must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
	p.env = append([]string{
		"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + p.home, "LANG=C.UTF-8", "TERM=dumb",
		"HTTPS_PROXY=" + p.fake.URL, "HTTP_PROXY=" + p.fake.URL, "https_proxy=" + p.fake.URL, "http_proxy=" + p.fake.URL,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost", "E2E_TAG=" + root,
	}, c.env(t, p.fake.URL, p.home)...)
	return p
}

// runSummary is the part of `awf run --format json` the tests read.
type runSummary struct {
	RunID  string `json:"run_id"`
	Status string `json:"status"`
	Steps  []struct {
		Name, Status, Output, Error, Tools string
	} `json:"steps"`
}

func (p *project) run(t *testing.T) (runSummary, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, awfBin, "run", "e2e", "--format", "json")
	cmd.Dir, cmd.Env = p.dir, p.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var s runSummary
	if jerr := json.Unmarshal(out.Bytes(), &s); jerr != nil {
		t.Fatalf("awf run: %v; stdout not JSON (%v):\n%s\nstderr:\n%s\nfake:\n%s", err, jerr, out.String(), errb.String(), p.fake.Summary())
	}
	if err != nil || s.Status != "success" {
		t.Fatalf("awf run: %v status %s\n%s\nstderr:\n%s\nfake:\n%s", err, s.Status, out.String(), errb.String(), p.fake.Summary())
	}
	return s, errb.String()
}

type record struct {
	Tool, Source, Outcome, Step, Error string
	Intent                             struct{ Variant, Decision string }
}

func (p *project) records(t *testing.T, runID string) []record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.dir, ".awf", "runs", runID, "activity.jsonl"))
	if err != nil {
		t.Fatalf("no activity file: the proxy served no call: %v", err)
	}
	var recs []record
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r record
		must(t, json.Unmarshal([]byte(l), &r))
		recs = append(recs, r)
	}
	return recs
}

// leftovers lists processes still tagged with this test's root: the CLI (it inherits E2E_TAG),
// mcp-serve (its config lives under the run's temp dir, named in its command line) and plugins.
func leftovers(tag string, extraPIDs ...int) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if len(stat) == 0 {
			continue
		}
		hit := bytes.Contains(env, []byte(tag)) || bytes.Contains(cmdline, []byte(tag))
		for _, x := range extraPIDs {
			hit = hit || pid == x
		}
		if hit {
			out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
		}
	}
	return out
}

func waitNoLeftovers(t *testing.T, tag string, extra ...int) {
	t.Helper()
	// The CLI's processes are not our children: the process table is the only witness.
	var left []string
	if testkit.Eventually(10*time.Second, func() bool { left = leftovers(tag, extra...); return len(left) == 0 }) {
		return
	}
	for _, l := range left {
		pid, _ := strconv.Atoi(strings.Fields(l)[0])
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Fatalf("processes left behind:\n%s", strings.Join(left, "\n"))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
