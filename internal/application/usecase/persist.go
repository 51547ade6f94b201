package usecase

import (
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// persister is the run observer that keeps .awf/runs/<id>/state.json current: it writes the
// record whole when the run starts and when it ends, and in between appends each transition to
// the run's journal when the store keeps one (runrecord.Entry), so a transition costs the same
// at the ten-thousandth step as at the first, and a run stopped at any moment can be shown and
// resumed. A store without a journal gets the whole record at every transition. A save that
// fails is logged once and the run goes on: losing the record must not lose the run.
type persister struct {
	store  ports.RunStore
	rec    runrecord.Record
	now    func() time.Time
	log    *zap.Logger
	warned bool
	// journal receives the transitions after the first whole write; nil before it, and for
	// a store that keeps none (every transition then writes the record whole).
	journal runrecord.Journal
	based   bool // the record was written whole since the run (or resume) started
	// red is the run's redactor: what it masks in the record's text is kept in rec.Masked
	// (keep), so later readers mask it too. nil keeps nothing.
	red  *redact.Redactor
	kept map[string]bool // rec.Masked as a set
	gen  uint64          // red's Generation at the last whole-record scan
}

// journaling is a run store that keeps a journal of transitions beside each record
// (runstore.Store): Save writes the record whole and empties the journal.
type journaling interface {
	OpenJournal(id string) (runrecord.Journal, error)
}

// newPersister starts the record of a run (or continues a resumed one's).
func newPersister(store ports.RunStore, rec runrecord.Record, log *zap.Logger) *persister {
	return &persister{store: store, rec: rec, now: time.Now, log: log}
}

// Observe implements run.Observer.
func (p *persister) Observe(e run.Event) {
	var en runrecord.Entry
	switch e := e.(type) {
	case run.RunStarted:
		en.Status = runrecord.Running
	case run.StepStarted:
		if e.Within != "" {
			en.Started = e.Within + "/" + e.Name
		} else {
			en.Current = e.Name
		}
	case run.StepFinished:
		en = p.finished(e.Step)
	case run.RunFinished:
		p.ended(e)
		p.compact()
		return
	default:
		return
	}
	p.record(en)
}

func (p *persister) finished(sr run.StepResult) runrecord.Entry {
	st := stepOf(sr)
	en := runrecord.Entry{Step: &st, Masked: p.fresh(p.stepTexts(st, nil))}
	if sr.Within == "" && sr.Next != "" {
		en.Current = sr.Next
	}
	return en
}

// record applies one transition to the record and persists it: appended to the journal, or
// the record written whole the first time and when the store keeps no journal.
func (p *persister) record(en runrecord.Entry) {
	en.N, en.At = p.rec.Seq+1, p.now()
	p.rec.Apply(en)
	if p.journal != nil {
		err := p.journal.Append(en)
		if err == nil {
			return
		}
		p.warn(err)
		_ = p.journal.Close()
		p.journal = nil // the whole record then, at every transition
	}
	p.save()
	if !p.based {
		p.based = true
		if js, ok := p.store.(journaling); ok && !p.warned {
			if j, err := js.OpenJournal(p.rec.ID); err == nil {
				p.journal = j
			}
		}
	}
}

// compact writes the record whole once the run ended, which empties its journal.
func (p *persister) compact() {
	if p.journal != nil {
		_ = p.journal.Close()
		p.journal = nil
	}
	p.save()
}

// ended sets the final status. The step an interrupt stopped did not finish: it is dropped from
// the record, so a resume runs it again (its sub-steps stay, for awf status to show).
func (p *persister) ended(e run.RunFinished) {
	p.rec.Ended = p.now()
	p.rec.Status = recordStatus(e.Status)
	p.rec.Error = ""
	if e.Err != nil {
		p.rec.Error = e.Err.Error()
	}
	if p.red.Generation() != p.gen {
		p.keepRecord() // the redactor learnt values (a later step's api_key_env) since the scan
	} else {
		p.keep(p.red.Found(p.rec.Error))
	}
	if e.Terminal != "" {
		p.rec.Current = e.Terminal
	}
	if e.Status != run.RunInterrupted {
		p.rec.Active = nil
		return
	}
	if n := len(p.rec.Steps); n > 0 {
		if last := p.rec.Steps[n-1]; last.Within == "" && last.Next == "" && last.Name == p.rec.Current {
			p.rec.Steps = p.rec.Steps[:n-1]
		}
	}
}

func (p *persister) save() {
	p.rec.Updated = p.now()
	if err := p.store.Save(p.rec); err != nil {
		p.warn(err)
	}
}

// warn logs the first failure to persist the run.
func (p *persister) warn(err error) {
	if !p.warned {
		p.warned = true
		p.log.Warn("cannot persist the run state; the run goes on but cannot be resumed", zap.Error(err))
	}
}

// recordStatus maps the engine's run status to the persisted one.
func recordStatus(s string) string {
	switch s {
	case run.RunSuccess:
		return runrecord.Succeeded
	case run.RunInterrupted:
		return runrecord.Interrupted
	case run.RunError:
		return runrecord.Errored
	default:
		return runrecord.Failed
	}
}

func stepOf(sr run.StepResult) runrecord.Step {
	return runrecord.Step{Name: sr.Name, Type: sr.Type, Status: string(sr.Status), ExitCode: sr.ExitCode,
		Output: sr.Output, Stderr: sr.Stderr, Error: sr.Error, Next: sr.Next, Attempts: sr.Attempts,
		Within: sr.Within, JSON: sr.JSON, Response: sr.Response, Conversation: sr.Session, DurationMS: sr.Duration.Milliseconds()}
}

// resultOf is the engine's view of a recorded step, for a resumed run's scope.
func resultOf(s runrecord.Step) run.StepResult {
	return run.StepResult{Name: s.Name, Type: s.Type, Status: run.StepStatus(s.Status), ExitCode: s.ExitCode,
		Output: s.Output, Stderr: s.Stderr, Error: s.Error, Next: s.Next, Attempts: s.Attempts,
		Within: s.Within, JSON: s.JSON, Response: s.Response, Session: s.Conversation, Duration: time.Duration(s.DurationMS) * time.Millisecond}
}

// keepRecord adds to the record's mask set what the redactor masks anywhere in the record's
// text: inputs, every step, the error.
func (p *persister) keepRecord() {
	if p.red == nil {
		return
	}
	p.gen = p.red.Generation()
	found := p.red.FoundIn(p.rec.Inputs, nil)
	found = append(found, p.red.Found(p.rec.Error)...)
	for _, st := range p.rec.Steps {
		found = p.stepTexts(st, found)
	}
	p.keep(found)
}

// stepTexts appends what the redactor masks in one recorded step to found.
func (p *persister) stepTexts(st runrecord.Step, found []string) []string {
	if p.red == nil {
		return found
	}
	for _, s := range []string{st.Output, st.Stderr, st.Error} {
		found = append(found, p.red.Found(s)...)
	}
	found = p.red.FoundIn(st.JSON, found)
	found = p.red.FoundIn(st.Response, found)
	if st.Conversation != nil {
		for _, m := range st.Conversation.Messages {
			found = append(found, p.red.Found(m.Content)...)
		}
	}
	return found
}

// keep adds found to the record's mask set, each text once, in the order first found.
func (p *persister) keep(found []string) {
	p.rec.Masked = append(p.rec.Masked, p.fresh(found)...)
}

// fresh are the texts of found not yet in the record's mask set, each once; it counts them
// as kept.
func (p *persister) fresh(found []string) []string {
	if len(found) == 0 {
		return nil
	}
	if p.kept == nil {
		p.kept = make(map[string]bool, len(p.rec.Masked)+len(found))
		for _, m := range p.rec.Masked {
			p.kept[m] = true
		}
	}
	var out []string
	for _, f := range found {
		if !p.kept[f] {
			p.kept[f] = true
			out = append(out, f)
		}
	}
	return out
}

// NewPersister is the observer that keeps a run's record in store, as Run wires it for every
// run: exported so the engine benchmarks (tests/engine) time the engine with its real record.
func NewPersister(store ports.RunStore, rec runrecord.Record, log *zap.Logger) run.Observer {
	return newPersister(store, rec, log)
}
