package runindex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// writeRuns writes n finished runs under root's .awf/runs as awf writes them (a state.json
// each; every tenth with a 3-line activity file).
func writeRuns(tb testing.TB, root string, n int) {
	tb.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		started := t0.Add(time.Duration(i) * time.Second)
		id := fmt.Sprintf("%s-%06x", started.Format("20060102-150405"), i)
		rec := runrecord.Record{Version: runrecord.Version, ID: id, Workflow: []string{"build", "review"}[i%2], Status: []string{runrecord.Succeeded, runrecord.Failed}[i%3%2],
			Started: started, Updated: started.Add(time.Second), Ended: started.Add(time.Second), Current: "done",
			Steps: []runrecord.Step{{Name: "a", Type: "command", Status: "success", Output: "hello\n", DurationMS: 5}}}
		dir := filepath.Join(root, ".awf", "runs", id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			tb.Fatal(err)
		}
		data, _ := json.Marshal(rec)
		if err := os.WriteFile(filepath.Join(dir, runstore.FileName), data, 0o600); err != nil {
			tb.Fatal(err)
		}
		if i%10 == 0 {
			_ = os.WriteFile(filepath.Join(dir, "activity.jsonl"), []byte("{}\n{}\n{}\n"), 0o600)
		}
	}
}

// BenchmarkList10k is a list of 10,000 unchanged runs through a built index, the cost of
// every awf history and every API list: "same" where the runs directory's link count shows no
// run directory made or removed, "names" where its names are read (a dot directory among the
// runs keeps the count from answering, as after a run starts).
func BenchmarkList10k(b *testing.B) {
	root := b.TempDir()
	writeRuns(b, root, 10_000)
	for _, way := range []string{"same", "names"} {
		b.Run(way, func(b *testing.B) {
			keep := filepath.Join(root, ".awf", "runs", ".keep")
			if err := os.RemoveAll(keep); err != nil {
				b.Fatal(err)
			}
			if way == "names" {
				if err := os.Mkdir(keep, 0o700); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := New(root, "activity.jsonl").List(); err != nil { // builds the index
				b.Fatal(err)
			}
			for b.Loop() {
				recs, err := New(root, "activity.jsonl").List()
				if err != nil || len(recs) != 10_000 {
					b.Fatal(err, len(recs))
				}
			}
		})
	}
}
