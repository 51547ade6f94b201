package usecase

import (
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// persister is the run observer that keeps .awf/runs/<id>/state.json current: it saves the
// record after every transition, so a run stopped at any moment can be shown and resumed.
// A save that fails is logged once and the run goes on: losing the record must not lose the run.
type persister struct {
	store  ports.RunStore
	rec    runrecord.Record
	now    func() time.Time
	log    *zap.Logger
	warned bool
	// red is the run's redactor: what it masks in the record's text is kept in rec.Masked
	// (keep), so later readers mask it too. nil keeps nothing.
	red  *redact.Redactor
	kept map[string]bool // rec.Masked as a set
	gen  uint64          // red's Generation at the last whole-record scan
}

// newPersister starts the record of a run (or continues a resumed one's).
func newPersister(store ports.RunStore, rec runrecord.Record, log *zap.Logger) *persister {
	return &persister{store: store, rec: rec, now: time.Now, log: log}
}

// Observe implements run.Observer.
func (p *persister) Observe(e run.Event) {
	switch e := e.(type) {
	case run.RunStarted:
		p.rec.Status = runrecord.Running
	case run.StepStarted:
		if e.Within != "" {
			p.rec.Active = append(p.rec.Active, e.Within+"/"+e.Name)
		} else {
			p.rec.Current = e.Name
		}
	case run.StepFinished:
		p.finished(e.Step)
	case run.RunFinished:
		p.ended(e)
	default:
		return
	}
	p.save()
}

func (p *persister) finished(sr run.StepResult) {
	if sr.Within != "" {
		if i := slices.Index(p.rec.Active, sr.Within+"/"+sr.Name); i >= 0 {
			p.rec.Active = slices.Delete(p.rec.Active, i, i+1)
		}
	} else if sr.Next != "" {
		p.rec.Current = sr.Next
	}
	p.rec.Steps = append(p.rec.Steps, stepOf(sr))
	p.keep(p.stepTexts(p.rec.Steps[len(p.rec.Steps)-1], nil))
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
	if err := p.store.Save(p.rec); err != nil && !p.warned {
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
	if len(found) == 0 {
		return
	}
	if p.kept == nil {
		p.kept = make(map[string]bool, len(p.rec.Masked)+len(found))
		for _, m := range p.rec.Masked {
			p.kept[m] = true
		}
	}
	for _, f := range found {
		if !p.kept[f] {
			p.kept[f] = true
			p.rec.Masked = append(p.rec.Masked, f)
		}
	}
}
