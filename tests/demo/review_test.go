package demo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// startModel starts the scripted demo model and returns its base URL; it stops with the test.
func startModel(t *testing.T, ctx context.Context, bin string) string {
	t.Helper()
	model := exec.CommandContext(ctx, bin, "--addr", "127.0.0.1:0", "--quiet")
	stdout, _ := model.StdoutPipe()
	must(t, model.Start())
	t.Cleanup(func() { _ = model.Process.Kill(); _ = model.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("demo model first line %q: %v", line, err)
	}
	return url
}

// TestReviewExample runs examples/workflows/review.yaml as its header says: a retry, a
// for_each over files, two agent steps in parallel and a call_workflow, through bin/awf against
// the demo model. It checks the steps in order, their outputs, and one activity file per agent.
func TestReviewExample(t *testing.T) {
	bin := t.TempDir()
	build(t, bin+"/awf", "./cmd/awf")
	build(t, bin+"/demo-model", "./examples/demo-model")

	proj := t.TempDir()
	wfDir := filepath.Join(proj, ".awf", "workflows")
	must(t, os.MkdirAll(wfDir, 0o755))
	for _, f := range []string{"review.yaml", "review-digest.yaml"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "workflows", f))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(wfDir, f), b, 0o644))
	}
	must(t, os.WriteFile(filepath.Join(proj, "README.md"), []byte("# a project\n\nawf reads this.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module example.com/p\n\ngo 1.26\n"), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := startModel(t, ctx, bin+"/demo-model")
	home, tmp := t.TempDir(), t.TempDir()
	run := exec.CommandContext(ctx, bin+"/awf", "run", "review", "--format", "json")
	run.Dir = proj
	run.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + tmp, "OPENAI_BASE_URL=" + url, "OPENAI_MODEL=awf-demo"}
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("awf run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var summary struct {
		RunID            string `json:"run_id"`
		Status, Terminal string
		Steps            []struct {
			Name, Status, Output, Within, Tools string
			Attempts                            int
		}
	}
	must(t, json.Unmarshal(out.Bytes(), &summary))
	if summary.Status != "success" || summary.Terminal != "done" {
		t.Fatalf("run: %s", out.String())
	}
	var order []string
	outputs := map[string]string{}
	for _, s := range summary.Steps {
		name := s.Name
		if s.Within != "" {
			name += " in " + s.Within
		}
		order = append(order, name)
		outputs[name] = s.Output
	}
	// The two branches finish in either order; everything else is sequential.
	want := []string{"prepare", "count in measure[0]", "count in measure[1]", "measure", "review_docs in reviews", "review_build in reviews", "reviews", "digest/fold", "digest", "report"}
	if len(order) == len(want) && order[4] == "review_build in reviews" {
		order[4], order[5] = order[5], order[4]
	}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("steps\n%q\nwant\n%q", order, want)
	}
	if summary.Steps[0].Attempts != 2 || outputs["prepare"] != "ready to review 2 files" {
		t.Errorf("the retry: %+v", summary.Steps[0])
	}
	if outputs["count in measure[0]"] != "README.md has 3 lines" || outputs["count in measure[1]"] != "go.mod has 3 lines" {
		t.Errorf("for_each outputs: %q %q", outputs["count in measure[0]"], outputs["count in measure[1]"])
	}
	if !strings.Contains(outputs["review_docs in reviews"], "scripted demo model") || !strings.HasPrefix(outputs["report"], "docs review: ") ||
		outputs["report"] != outputs["digest"] {
		t.Errorf("review and digest outputs: %q / %q / %q", outputs["review_docs in reviews"], outputs["digest"], outputs["report"])
	}

	b, err := os.ReadFile(filepath.Join(proj, ".awf", "runs", summary.RunID, "activity.jsonl"))
	must(t, err)
	steps := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ Step, Tool string }
		must(t, json.Unmarshal([]byte(l), &r))
		steps[r.Step]++
	}
	if steps["review_docs"] == 0 || steps["review_build"] == 0 || len(steps) != 2 {
		t.Errorf("activity records by step: %v", steps)
	}
}
