package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/tests/testkit"
)

// forEach writes a workflow whose one for_each runs `true` once per item, n items.
func forEach(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = strconv.Itoa(i)
	}
	return fmt.Sprintf(`name: each
states:
  initial: each
  each:
    type: for_each
    items: '[%s]'
    body: [t]
    on_complete: done
  t:
    type: step
    command: "true"
  done: {type: terminal}
`, strings.Join(items, ","))
}

// recorded runs the engine over wf with commands that answer at once and the run's real record
// (the persister over runstore, as awf run wires them); obs sees each event after the record.
func recorded(ctx context.Context, tb testing.TB, store runstore.Store, rec runrecord.Record, obs run.Observer, do func(*run.Runner) (*run.Result, error)) *run.Result {
	tb.Helper()
	if obs == nil {
		obs = run.NopObserver{}
	}
	r, err := run.New(run.Options{Commands: &instant{}, Expressions: expr.Compiler{}, Environ: []string{"HOME=/nowhere"},
		MaxSteps: 1 << 20, RunID: rec.ID, Observer: both{usecase.NewPersister(store, rec, zap.NewNop()), obs}})
	if err != nil {
		tb.Fatal(err)
	}
	res, err := do(r)
	if res == nil {
		tb.Fatalf("run: %v", err)
	}
	return res
}

// both sends each event to a, then to b.
type both struct{ a, b run.Observer }

func (o both) Observe(e run.Event) { o.a.Observe(e); o.b.Observe(e) }

func newRecord(id string) runrecord.Record {
	now := time.Now()
	return runrecord.Record{Version: runrecord.Version, ID: id, Workflow: "each", Status: runrecord.Running, Started: now, Updated: now, PID: os.Getpid()}
}

// BenchmarkForEach is awf's own cost per transition of a for_each of `true` (the engine and the
// run's record; commands answer at once) at 1,000 and 10,000 items: the 10,000-item figure
// must stay within 1.5× the 1,000-item one, a record whose cost per transition does not grow
// with the run. BenchmarkForEachProcess adds the processes.
func BenchmarkForEach(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			wf := load(b, forEach(n))
			store := runstore.Store{Root: b.TempDir()}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				res := recorded(context.Background(), b, store, newRecord(fmt.Sprintf("r%d", i)), nil,
					func(r *run.Runner) (*run.Result, error) { return r.RunResolved(context.Background(), wf, nil) })
				if res.Terminal != "done" || len(res.Steps) != n+1 {
					b.Fatalf("terminal %q, %d steps", res.Terminal, len(res.Steps))
				}
			}
			// Two transitions an item: the body state starts, and finishes.
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*n), "ns/transition")
		})
	}
}

// BenchmarkForEachProcess runs the binary over a for_each of `true` and a shell loop running
// `sh -c true` as many times, in alternating rounds, and reports the per-item time of each and
// their ratio (the goal: at most 2).
func BenchmarkForEachProcess(b *testing.B) {
	bin := benchBin(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			_ = os.WriteFile(filepath.Join(dir, "each.yaml"), []byte(forEach(n)), 0o644)
			env := append(os.Environ(), "HOME="+b.TempDir(), "TMPDIR="+b.TempDir(), "XDG_CACHE_HOME="+b.TempDir())
			var awfT, shT time.Duration
			for b.Loop() {
				awfT += timed(b, env, dir, bin, "--root", dir, "run", "each.yaml", "--format", "json")
				shT += timed(b, env, dir, "sh", "-c", fmt.Sprintf("i=0; while [ $i -lt %d ]; do sh -c true; i=$((i+1)); done", n))
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*n) }
			b.ReportMetric(per(awfT), "awf-ns/item")
			b.ReportMetric(per(shT), "sh-ns/item")
			b.ReportMetric(per(awfT)/per(shT), "ratio")
		})
	}
}

func timed(b *testing.B, env []string, dir, name string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%.2000s", name, err, out)
	}
	return time.Since(start)
}

// benchBin is the binary built from this tree, shared with the tests, or AWF_BENCH_AWF (another
// build, an earlier commit's, measured the same way).
func benchBin(b *testing.B) string {
	b.Helper()
	if other := os.Getenv("AWF_BENCH_AWF"); other != "" {
		return other
	}
	binsOnce.Do(func() { bins, binsErr = testkit.Build(false) })
	if binsErr != nil {
		b.Fatal(binsErr)
	}
	return bins.AWF
}

// TestForEach10kResumedFromTheMiddle: a for_each of 10,000 items whose process stops after
// 5,000 without writing its record whole (the journal holds the rest) is resumed from what Load
// gives back: the first 5,000 items are not run again, every item is in the record once, the
// journal is compacted away at the end, and the heap stays under 100 MiB throughout.
func TestForEach10kResumedFromTheMiddle(t *testing.T) {
	const n, half = 10000, 5000
	wf := load(t, forEach(n))
	store := runstore.Store{Root: t.TempDir()}
	id := "20260101-000000-tenk00"
	var peak atomic.Uint64
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	crash := &crashAfter{n: half, cancel: cancel, sample: sample}
	rec := newRecord(id)
	r, err := run.New(run.Options{Commands: &instant{}, Expressions: expr.Compiler{}, Environ: []string{"HOME=/nowhere"},
		MaxSteps: 1 << 20, RunID: id, Observer: crash.wrap(usecase.NewPersister(store, rec, zap.NewNop()))})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = r.RunResolved(ctx, wf, nil)
	if _, err := os.Stat(filepath.Join(store.Dir(id), runstore.JournalName)); err != nil {
		t.Fatalf("no journal after the crash: %v", err)
	}
	got, err := store.Load(id)
	if err != nil || countWithin(got) != half || got.Status != runrecord.Running {
		t.Fatalf("loaded after the crash: %d items, status %s, %v", countWithin(got), got.Status, err)
	}
	done := make([]run.StepResult, 0, len(got.Steps))
	for _, s := range got.Steps {
		done = append(done, run.StepResult{Name: s.Name, Type: s.Type, Status: run.StepStatus(s.Status), Within: s.Within, Next: s.Next, Output: s.Output})
	}
	cmds := &instant{}
	r2, err := run.New(run.Options{Commands: cmds, Expressions: expr.Compiler{}, Environ: []string{"HOME=/nowhere"},
		MaxSteps: 1 << 20, RunID: id, Observer: sampler{usecase.NewPersister(store, got, zap.NewNop()), sample}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r2.Resume(context.Background(), wf, nil, got.Current, done)
	if err != nil || res.Terminal != "done" {
		t.Fatalf("resume: %v, terminal %q", err, res.Terminal)
	}
	if cmds.calls != n-half {
		t.Fatalf("the resume ran %d commands, want %d (the unfinished items only)", cmds.calls, n-half)
	}
	final, err := store.Load(id)
	if err != nil || final.Status != runrecord.Succeeded || countWithin(final) != n {
		t.Fatalf("final record: %d items, status %s, %v", countWithin(final), final.Status, err)
	}
	if _, err := os.Stat(filepath.Join(store.Dir(id), runstore.JournalName)); !os.IsNotExist(err) {
		t.Fatalf("the journal was not compacted at the end: %v", err)
	}
	if p := peak.Load(); p == 0 || p > 100<<20 {
		t.Fatalf("peak heap in use %d MiB, want under 100", p>>20)
	}
	t.Logf("peak heap in use: %.1f MiB", float64(peak.Load())/(1<<20))
}

func countWithin(r runrecord.Record) int {
	n := 0
	for _, s := range r.Steps {
		if s.Within != "" {
			n++
		}
	}
	return n
}

// crashAfter passes events to the record until n loop items finished, then stops passing them
// (as a killed process would) and cancels the run.
type crashAfter struct {
	n      int
	seen   int
	cancel func()
	sample func()
}

func (c *crashAfter) wrap(o run.Observer) run.Observer {
	return observerFunc(func(e run.Event) {
		if c.seen >= c.n {
			return
		}
		o.Observe(e)
		if f, ok := e.(run.StepFinished); ok && f.Step.Within != "" {
			c.seen++
			if c.seen%500 == 0 {
				c.sample()
			}
			if c.seen == c.n {
				c.cancel()
			}
		}
	})
}

type observerFunc func(run.Event)

func (f observerFunc) Observe(e run.Event) { f(e) }

// sampler samples the heap every 500 events it passes on.
type sampler struct {
	o      run.Observer
	sample func()
}

var sampled atomic.Int64

func (s sampler) Observe(e run.Event) {
	s.o.Observe(e)
	if sampled.Add(1)%500 == 0 {
		s.sample()
	}
}
