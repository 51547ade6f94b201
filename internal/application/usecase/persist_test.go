package usecase

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// memRuns is a RunStore in memory; saves counts the writes, fail makes them fail.
type memRuns struct {
	recs   map[string]runrecord.Record
	saves  int
	fail   bool
	alive  map[int]bool
	tools  map[string]int
	source map[string]string
}

func (m *memRuns) Save(r runrecord.Record) error {
	m.saves++
	if m.fail {
		return errors.New("disk full")
	}
	if m.recs == nil {
		m.recs = map[string]runrecord.Record{}
	}
	m.recs[r.ID] = r
	return nil
}

func (m *memRuns) Load(id string) (runrecord.Record, error) {
	r, ok := m.recs[id]
	if !ok {
		return r, fault.New(fault.UserRunNotFound, "no run %q", id)
	}
	return r, nil
}

func (m *memRuns) List() ([]runrecord.Record, error) {
	var out []runrecord.Record
	for _, r := range m.recs {
		out = append(out, r)
	}
	sortByStart(out)
	return out, nil
}

func sortByStart(rs []runrecord.Record) {
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[j].Started.After(rs[i].Started) {
				rs[i], rs[j] = rs[j], rs[i]
			}
		}
	}
}

func (m *memRuns) ToolCalls(id string) int     { return m.tools[id] }
func (m *memRuns) Alive(pid int) bool          { return m.alive[pid] }
func (m *memRuns) Lock(string) (func(), error) { return func() {}, nil }
func (m *memRuns) ReadSource(f string) ([]byte, error) {
	s, ok := m.source[f]
	if !ok {
		return nil, errors.New("no such file")
	}
	return []byte(s), nil
}

func TestPersisterRecordsEachTransition(t *testing.T) {
	tests := []struct {
		name        string
		events      []run.Event
		wantStatus  string
		wantCurrent string
		wantSteps   string
		wantSaves   int
	}{
		{name: "success", events: []run.Event{
			run.RunStarted{}, run.StepStarted{Name: "a"}, run.StepFinished{Step: run.StepResult{Name: "a", Status: run.StepSuccess, Next: "b"}},
			run.StepStarted{Name: "b"}, run.StepFinished{Step: run.StepResult{Name: "b", Status: run.StepSuccess, Next: "done"}},
			run.RunFinished{Status: run.RunSuccess, Terminal: "done"},
		}, wantStatus: runrecord.Succeeded, wantCurrent: "done", wantSteps: "a,b", wantSaves: 6},
		{name: "interrupted mid-step drops the stopped step", events: []run.Event{
			run.RunStarted{}, run.StepStarted{Name: "a"}, run.StepFinished{Step: run.StepResult{Name: "a", Status: run.StepSuccess, Next: "b"}},
			run.StepStarted{Name: "b"}, run.StepFinished{Step: run.StepResult{Name: "b", Status: run.StepFailure}},
			run.RunFinished{Status: run.RunInterrupted, Err: errors.New("run interrupted")},
		}, wantStatus: runrecord.Interrupted, wantCurrent: "b", wantSteps: "a", wantSaves: 6},
		{name: "failure keeps the failed step", events: []run.Event{
			run.RunStarted{}, run.StepStarted{Name: "a"}, run.StepFinished{Step: run.StepResult{Name: "a", Status: run.StepFailure}},
			run.RunFinished{Status: run.RunFailure, Err: errors.New("failed")},
		}, wantStatus: runrecord.Failed, wantCurrent: "a", wantSteps: "a", wantSaves: 4},
		{name: "loop sub-steps tracked as active then finished", events: []run.Event{
			run.RunStarted{}, run.StepStarted{Name: "loop"}, run.StepStarted{Name: "x", Within: "loop[0]"},
			run.StepFinished{Step: run.StepResult{Name: "x", Within: "loop[0]", Status: run.StepSuccess}},
		}, wantStatus: runrecord.Running, wantCurrent: "loop", wantSteps: "x", wantSaves: 4},
		{name: "error status is error, as run --format json says", events: []run.Event{run.RunStarted{}, run.RunFinished{Status: run.RunError}},
			wantStatus: runrecord.Errored, wantSaves: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &memRuns{}
			p := newPersister(store, runrecord.Record{ID: "r", Status: runrecord.Running}, zap.NewNop())
			for _, e := range tt.events {
				p.Observe(e)
			}
			p.Observe(run.StepRetrying{Name: "ignored"})
			got := store.recs["r"]
			var names []string
			for _, s := range got.Steps {
				names = append(names, s.Name)
			}
			if got.Status != tt.wantStatus || got.Current != tt.wantCurrent || strings.Join(names, ",") != tt.wantSteps || store.saves != tt.wantSaves {
				t.Fatalf("status %s current %q steps %v saves %d; want %s %q %s %d", got.Status, got.Current, names, store.saves,
					tt.wantStatus, tt.wantCurrent, tt.wantSteps, tt.wantSaves)
			}
			if len(got.Active) != 0 {
				t.Fatalf("active %v left", got.Active)
			}
			if got.Updated.IsZero() || (tt.wantStatus != runrecord.Running && got.Ended.IsZero()) {
				t.Fatalf("times not set: %+v", got)
			}
		})
	}
}

func TestPersisterSaveFailureDoesNotStopRun(t *testing.T) {
	store := &memRuns{fail: true}
	p := newPersister(store, runrecord.Record{ID: "r"}, zap.NewNop())
	p.Observe(run.RunStarted{})
	p.Observe(run.RunFinished{Status: run.RunSuccess})
	if store.saves != 2 || !p.warned {
		t.Fatalf("saves %d warned %v", store.saves, p.warned)
	}
}

func TestStepRoundTrip(t *testing.T) {
	sr := run.StepResult{Name: "a", Type: "agent", Status: run.StepFailure, ExitCode: 3, Output: "o", Stderr: "e", Error: "x",
		Next: "n", Attempts: 2, Within: "w", JSON: map[string]any{"k": 1.0}, Response: map[string]any{"s": 1.0}, Duration: 1500 * time.Millisecond}
	got := resultOf(stepOf(sr))
	if got.Name != sr.Name || got.Type != sr.Type || got.Status != sr.Status || got.ExitCode != 3 || got.Output != "o" || got.Stderr != "e" ||
		got.Error != "x" || got.Next != "n" || got.Attempts != 2 || got.Within != "w" || got.JSON == nil || got.Response["s"] != 1.0 || got.Duration != sr.Duration {
		t.Fatalf("round trip %+v", got)
	}
}

// journalRuns is memRuns with a journal: entries appended between whole saves.
type journalRuns struct {
	memRuns
	entries []runrecord.Entry
	opened  int
}

type memJournal struct{ j *journalRuns }

func (m memJournal) Append(e runrecord.Entry) error { m.j.entries = append(m.j.entries, e); return nil }
func (m memJournal) Close() error                   { return nil }

func (j *journalRuns) OpenJournal(string) (runrecord.Journal, error) {
	j.opened++
	j.entries = nil
	return memJournal{j}, nil
}

// TestPersisterJournalsTransitions: with a store that keeps a journal, a run writes its record
// whole twice (start, end) whatever its length, and the start record plus the entries give the
// same record as the whole writes did.
func TestPersisterJournalsTransitions(t *testing.T) {
	for _, n := range []int{1, 50} {
		store := &journalRuns{}
		p := newPersister(store, runrecord.Record{ID: "r", Status: runrecord.Running}, zap.NewNop())
		p.Observe(run.RunStarted{})
		base := store.recs["r"]
		p.Observe(run.StepStarted{Name: "loop"})
		for i := range n {
			within := "loop[" + strings.Repeat("i", i) + "]"
			p.Observe(run.StepStarted{Name: "x", Within: within})
			p.Observe(run.StepFinished{Step: run.StepResult{Name: "x", Within: within, Status: run.StepSuccess}})
		}
		if store.saves != 1 || store.opened != 1 || len(store.entries) != 1+2*n {
			t.Fatalf("n=%d: %d whole saves, %d journals, %d entries; want 1, 1, %d", n, store.saves, store.opened, len(store.entries), 1+2*n)
		}
		for _, e := range store.entries {
			base.Apply(e)
		}
		if base.Current != "loop" || len(base.Steps) != n || len(base.Active) != 0 || base.Seq != 2+2*n {
			t.Fatalf("n=%d: replayed record %+v", n, base)
		}
		p.Observe(run.RunFinished{Status: run.RunSuccess, Terminal: "done"})
		if got := store.recs["r"]; store.saves != 2 || got.Status != runrecord.Succeeded || len(got.Steps) != n {
			t.Fatalf("n=%d: after the end %d saves, %+v", n, store.saves, got)
		}
	}
}
