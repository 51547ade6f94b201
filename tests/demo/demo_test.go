// Package demo_test runs `make demo`'s workflow (examples/workflows/quickstart.yaml) the way the
// demo does: the scripted model on a free loopback port, the real awf binary and the real notes
// plugin, then checks the run's activity file record by record.
package demo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

func repoRoot() string { return testkit.RepoRoot() }

func build(t *testing.T, out, pkg string) {
	t.Helper()
	if err := testkit.GoBuild(out, pkg); err != nil {
		t.Fatal(err)
	}
}

func TestQuickstartActivity(t *testing.T) {
	bin := t.TempDir()
	build(t, bin+"/awf", "./cmd/awf")
	build(t, bin+"/demo-model", "./examples/demo-model")
	build(t, bin+"/plugins/", "./examples/plugins/...")

	// A project of its own: the quickstart, a README for the agent to read, the notes plugin.
	proj := t.TempDir()
	wf, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "workflows", "quickstart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(proj, ".awf", "workflows"), 0o755))
	must(t, os.WriteFile(filepath.Join(proj, ".awf", "workflows", "quickstart.yaml"), wf, 0o644))
	must(t, os.WriteFile(filepath.Join(proj, "README.md"), []byte("# demo project for awf\n\nawf routes every tool call.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, ".awf", "plugins.yaml"), []byte(fmt.Sprintf(
		"plugins:\n  notes:\n    command: %s/plugins/notes\n    config:\n      dir: .awf/notes\n", bin)), 0o644))

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

	run := exec.CommandContext(ctx, bin+"/awf", "run", "quickstart", "--format", "json")
	run.Dir = proj
	run.Env = append(os.Environ(), "OPENAI_BASE_URL="+url, "OPENAI_MODEL=awf-demo")
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("awf run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var summary struct {
		RunID  string `json:"run_id"`
		Status string `json:"status"`
		Steps  []struct{ Name, Output, Tools string }
	}
	must(t, json.Unmarshal(out.Bytes(), &summary))
	if summary.Status != "success" || len(summary.Steps) != 2 || !strings.Contains(summary.Steps[0].Output, "# demo project for awf") {
		t.Fatalf("run summary: %s", out.String())
	}

	b, err := os.ReadFile(filepath.Join(proj, ".awf", "runs", summary.RunID, "activity.jsonl"))
	must(t, err)
	type record struct {
		Tool, Source, Outcome, Step, RunID string
		Intent                             struct{ Variant, Decision string }
		Sandbox                            *struct{ Enforced bool }
	}
	var recs []record
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r record
		must(t, json.Unmarshal([]byte(l), &r))
		recs = append(recs, r)
	}
	want := []record{
		{Tool: "Read", Source: "builtin", Outcome: "success"},
		{Tool: "Grep", Source: "builtin", Outcome: "success"},
		{Tool: "Bash", Source: "builtin", Outcome: "refused"},
		{Tool: "notes_put", Source: "plugin:notes", Outcome: "success"},
		{Tool: "notes_get", Source: "plugin:notes", Outcome: "success"},
	}
	variants := []string{"read", "read", "destructive", "write", "read"}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), b)
	}
	bashSummary := "Bash×1 destructive refused"
	if len(recs) > 2 && recs[2].Sandbox != nil && recs[2].Sandbox.Enforced {
		// Where the kernel can sandbox Bash (docs/decisions/0012-kernel-sandbox.md), a step allowing [read, write] is offered
		// Bash confined to the write policy: the demo's rm -rf outside the root runs and removes
		// nothing (the path does not exist, and the sandbox would deny it if it did).
		want[2].Outcome, variants[2], bashSummary = "success", "write", "Bash×1 write"
	}
	for i, w := range want {
		r := recs[i]
		if r.Tool != w.Tool || r.Source != w.Source || r.Outcome != w.Outcome || r.Intent.Variant != variants[i] {
			t.Errorf("record %d = %+v, want %+v variant %s", i, r, w, variants[i])
		}
	}
	if !strings.Contains(summary.Steps[0].Tools, bashSummary) {
		t.Errorf("step summary %q", summary.Steps[0].Tools)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
