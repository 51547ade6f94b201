package report_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apprep "github.com/awf-dev/awf/internal/application/report"
	infrep "github.com/awf-dev/awf/internal/infrastructure/report"
	"github.com/awf-dev/awf/tests/testkit"
)

// loopsFlow runs an agent step in each iteration of a for_each, two at once, against the
// scripted demo model: each iteration's agent reads and greps through awf's proxy.
const loopsFlow = `name: loops
states:
  initial: each
  each:
    type: for_each
    items: [a, b]
    max_concurrent: 2
    body: [review]
    on_complete: done
  review:
    type: agent
    provider: openai_compatible
    prompt: 'look at {{.loop.Item}}'
    options: {max_turns: 6}
    mcp_proxy:
      enable: true
      intercept_builtins: true
      intent: {allow: [read]}
  done: {type: terminal}
`

// TestReportPutsLoopAgentsOnTheirIteration runs real agents inside a concurrent for_each and
// builds the report's model from the run's own files: one lane per iteration's step (no second
// lane for the calls of an iteration), each iteration's tool calls and tokens on its card, as
// many calls as the activity file holds under that iteration's label.
func TestReportPutsLoopAgentsOnTheirIteration(t *testing.T) {
	bin := t.TempDir()
	for out, pkg := range map[string]string{"/awf": "./cmd/awf", "/demo-model": "./examples/demo-model"} {
		must(t, testkit.GoBuild(bin+out, pkg))
	}
	proj := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(proj, ".awf", "workflows"), 0o755))
	must(t, os.WriteFile(filepath.Join(proj, ".awf", "workflows", "loops.yaml"), []byte(loopsFlow), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, "README.md"), []byte("# awf loops\n\nawf routes every tool call.\n"), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	model := exec.CommandContext(ctx, bin+"/demo-model", "--addr", "127.0.0.1:0")
	stdout, _ := model.StdoutPipe()
	must(t, model.Start())
	defer func() { _ = model.Process.Kill(); _ = model.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("demo model first line %q: %v", line, err)
	}
	run := exec.CommandContext(ctx, bin+"/awf", "run", "loops", "--format", "json")
	run.Dir = proj
	run.Env = append(os.Environ(), "OPENAI_BASE_URL="+url, "OPENAI_MODEL=awf-demo", "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("awf run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var summary struct {
		RunID string `json:"run_id"`
	}
	must(t, json.Unmarshal(out.Bytes(), &summary))

	in, err := infrep.Read(proj, summary.RunID)
	must(t, err)
	perLabel := map[string]int{}
	for _, c := range in.Calls {
		perLabel[c.Step]++
	}
	if perLabel["review[0]"] == 0 || perLabel["review[1]"] == 0 {
		t.Fatalf("the agents made no calls under review[0] and review[1]: %v", perLabel)
	}
	v := apprep.Build(in)
	if len(v.Lanes) != len(in.Record.Steps) {
		t.Errorf("%d lanes for %d steps: an iteration got a second lane", len(v.Lanes), len(in.Record.Steps))
		for _, l := range v.Lanes {
			t.Logf("lane %q (%s) with %d calls", l.Label, l.Kind, len(l.Marks))
		}
	}
	seen := 0
	for _, s := range v.Steps {
		for i, label := range []string{"each[0] › review", "each[1] › review"} {
			if s.Label != label {
				continue
			}
			seen++
			want := perLabel[[]string{"review[0]", "review[1]"}[i]]
			if s.Calls != want || s.Requests == 0 || s.PromptTokens == 0 {
				t.Errorf("%s: %d calls (activity has %d), %d requests, %d prompt tokens", label, s.Calls, want, s.Requests, s.PromptTokens)
			}
		}
	}
	if seen != 2 {
		t.Errorf("the report has %d iteration cards, want 2: %+v", seen, v.Steps)
	}
}
