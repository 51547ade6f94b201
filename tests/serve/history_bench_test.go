package serve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/runindex"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/tests/testkit"
)

// manyRuns writes n finished runs of two steps each under root's .awf/runs, as awf writes them
// (a state.json each; every tenth with a 3-line activity file).
func manyRuns(tb testing.TB, root string, n int) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		started := t0.Add(time.Duration(i) * time.Second)
		id := fmt.Sprintf("%s-%06x", started.Format("20060102-150405"), i)
		rec := runrecord.Record{Version: runrecord.Version, ID: id, Workflow: []string{"build", "review"}[i%2], Status: []string{runrecord.Succeeded, runrecord.Failed}[i%3%2],
			Started: started, Updated: started.Add(time.Second), Ended: started.Add(time.Second), Current: "done", Inputs: map[string]any{"who": "x"},
			Steps: []runrecord.Step{{Name: "a", Type: "command", Status: "success", Output: "hello\n", DurationMS: 5}, {Name: "b", Type: "command", Status: "success", DurationMS: 7}}}
		dir := filepath.Join(root, ".awf", "runs", id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			tb.Fatal(err)
		}
		data, _ := json.Marshal(rec)
		if err := os.WriteFile(filepath.Join(dir, runstore.FileName), data, 0o600); err != nil {
			tb.Fatal(err)
		}
		if i%10 == 0 {
			_ = os.WriteFile(filepath.Join(dir, activitylog.FileName), []byte("{}\n{}\n{}\n"), 0o600)
		}
	}
}

// BenchmarkHistory10k is the history use case (awf history, GET /api/history, the runs page)
// over 10,000 runs: through the index as awf wires it (built by a first, untimed list), and
// from the run files alone for comparison.
func BenchmarkHistory10k(b *testing.B) {
	root := b.TempDir()
	manyRuns(b, root, 10_000)
	stores := map[string]func() ports.RunStore{
		"index": func() ports.RunStore { return runindex.New(root, activitylog.FileName) },
		"files": func() ports.RunStore { return runstore.Store{Root: root, ActivityFile: activitylog.FileName} },
	}
	for _, way := range []string{"index", "files"} {
		for _, f := range []usecase.HistoryFilter{{}, {Workflow: "review", Limit: 50}} {
			b.Run(fmt.Sprintf("%s/workflow=%q,limit=%d", way, f.Workflow, f.Limit), func(b *testing.B) {
				uc := usecase.Runs{Store: stores[way]()}
				if _, err := uc.History(f); err != nil { // the index built, as every list after the first finds it
					b.Fatal(err)
				}
				for b.Loop() {
					runs, err := uc.History(f)
					if err != nil || len(runs) == 0 {
						b.Fatal(err, len(runs))
					}
				}
			})
		}
	}
}

// `awf history` over 10,000 runs, the whole command as a user runs it, lists them all and is
// timed against the 200 ms budget. Writing 10,000 runs takes most of a minute, so it runs when
// AWF_HISTORY_10K=1 asks; AWF_HISTORY_BUDGET_CHECK=1 also turns a miss into a failure (a shared
// machine's timing is noisy).
func TestHistory10kCommand(t *testing.T) {
	if os.Getenv("AWF_HISTORY_10K") != "1" {
		testkit.Skip(t, "writing 10,000 runs takes most of a minute: AWF_HISTORY_10K=1 times awf history over them (BenchmarkHistory10k measures the use case)")
	}
	root := t.TempDir()
	manyRuns(t, root, 10_000)
	best := time.Hour
	for range 3 {
		cmd := exec.Command(bins.AWF, "history", "--format", "json")
		cmd.Dir, cmd.Env = root, env(t)
		t0 := time.Now()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("awf history: %v", err)
		}
		best = min(best, time.Since(t0))
		var runs []map[string]any
		if err := json.Unmarshal(out, &runs); err != nil || len(runs) != 10_000 {
			t.Fatalf("awf history listed %d runs (%v)", len(runs), err)
		}
	}
	t.Logf("awf history over 10,000 runs: best of 3 %v", best)
	if best > 200*time.Millisecond && os.Getenv("AWF_HISTORY_BUDGET_CHECK") == "1" {
		t.Errorf("awf history took %v over 10,000 runs; the budget is 200 ms", best)
	}
}
