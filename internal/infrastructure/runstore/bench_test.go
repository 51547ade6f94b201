package runstore

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// BenchmarkSave100States is the cost of one transition's save for a run with 100 finished
// states of 1 KB output each (the docs/decisions/0014-persisted-runs-and-conversations.md target: under 1 ms).
func BenchmarkSave100States(b *testing.B) {
	s := Store{Root: b.TempDir()}
	r := runrecord.Record{Version: runrecord.Version, ID: "bench", Workflow: "w", Status: runrecord.Running, Started: time.Now(),
		Source: strings.Repeat("x", 8<<10)}
	for i := range 100 {
		r.Steps = append(r.Steps, runrecord.Step{Name: "s" + itoa(i), Type: "command", Status: "success", Output: strings.Repeat("o", 1024), Next: "n"})
	}
	b.ResetTimer()
	for b.Loop() {
		if err := s.Save(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSave100StatesNoSync is the same save without the fsync, to show where the time goes.
func BenchmarkSave100StatesNoSync(b *testing.B) {
	old := syncFile
	syncFile = func(*os.File) error { return nil }
	defer func() { syncFile = old }()
	BenchmarkSave100States(b)
}
