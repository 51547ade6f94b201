package usecase

import (
	"context"
	"time"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ResumeRequest is one `awf resume` as typed.
type ResumeRequest struct {
	ID string
	// From names the state to continue at: a state's name, "current" (where the run stopped,
	// as "" does) or "previous" (the main-flow state that ran before it, run again). A state
	// named current or previous is taken by its name.
	From string
	// Force runs the workflow file as it is now even though it changed since the run.
	Force bool
	// Inputs override recorded inputs, name=value as --input takes them (overrideInputs).
	Inputs []string
}

// Resume continues a persisted run in the same run id and directory: the states that finished
// are not run again, their outputs are what later templates see, and the run's inputs are the
// recorded ones. A workflow file changed since the run, or a file it read at its start
// (script_file, prompt_file, called workflow, plugins.yaml: checkFiles), is refused unless
// req.Force, so an edit cannot silently change a resumed run; with Force the files as they are
// now run and become the record's.
func (u Run) Resume(ctx context.Context, req ResumeRequest) error {
	rec, err := u.Runs.Load(req.ID)
	if err != nil {
		return err
	}
	if !rec.Resumable(u.Runs.Alive) {
		return fault.New(fault.UserRunNotResumable, "run %s is %s: there is nothing to resume", rec.ID, rec.Effective(u.Runs.Alive)).
			WithHint("awf status %s shows it; awf run %s starts a new run", rec.ID, rec.Workflow)
	}
	unlock, err := u.Runs.Lock(rec.ID)
	if err != nil {
		return err
	}
	defer unlock()
	if err := u.checkSource(&rec, req.Force); err != nil {
		return err
	}
	rep, err := u.Validator.Validate(ctx, rec.File)
	if err != nil {
		return err
	}
	if !rep.Valid() {
		u.View.Invalid(rep)
		return &Reported{Code: fault.ExitUser}
	}
	if err := u.checkFiles(&rec, rep.Workflow, req.Force); err != nil {
		return err
	}
	if err := u.overrideInputs(&rec, rep.Workflow, req.Inputs); err != nil {
		return err
	}
	from, err := resumeFrom(rec, rep.Workflow, req.From)
	if err != nil {
		return err
	}
	if err := run.CheckResumeState(rep.Workflow, from); err != nil {
		return err
	}
	done := make([]run.StepResult, 0, len(rec.Steps))
	for _, s := range rec.Steps {
		done = append(done, resultOf(s))
	}
	rec.Resumed++
	rec.PID, rec.Status, rec.Ended, rec.Error, rec.Current, rec.Updated = u.PID, runrecord.Running, time.Time{}, "", from, time.Now()
	u.mask(rep.Workflow, rec.Inputs, rec.Masked...)
	return u.execute(ctx, rep.Workflow, rec, func(r *run.Runner) (*run.Result, error) {
		return r.Resume(ctx, rep.Workflow, rec.Inputs, from, done)
	})
}

// checkSource compares the workflow file now with the copy the run recorded.
func (u Run) checkSource(rec *runrecord.Record, force bool) error {
	src, err := u.Runs.ReadSource(rec.File)
	if err != nil {
		return fault.Wrap(err, fault.UserWorkflowNotFound, "cannot read the workflow file %s of run %s", rec.File, rec.ID).
			WithHint("the file has moved or been deleted since the run")
	}
	hash := runrecord.Hash(src)
	if hash == rec.SourceHash {
		return nil
	}
	if !force {
		return fault.New(fault.UserRunWorkflowChanged, "the workflow file %s changed since run %s started", rec.File, rec.ID).
			WithHint("resuming would run a different workflow than the one recorded; use --force to resume with the file as it is now")
	}
	rec.Source, rec.SourceHash = string(src), hash
	return nil
}

// resumeAt is where a resume continues by default: the state the run stopped in, except for a
// run that ended in a failure terminal, which continues at the last failed step of the main
// flow (resuming at the terminal would only fail again).
func resumeAt(rec runrecord.Record, wf *workflow.Workflow) string {
	st, ok := wf.States[rec.Current]
	if !ok || !st.Ends() {
		return rec.Current
	}
	main := rec.Main()
	for i := len(main) - 1; i >= 0; i-- {
		if main[i].Status == string(run.StepFailure) {
			return main[i].Name
		}
	}
	return rec.Current
}

// Words --from takes besides a state's name.
const (
	fromCurrent  = "current"
	fromPrevious = "previous"
)

// resumeFrom is the state a resume starts at, as --from asks.
func resumeFrom(rec runrecord.Record, wf *workflow.Workflow, from string) (string, error) {
	if _, named := wf.States[from]; named || (from != fromCurrent && from != fromPrevious && from != "") {
		return from, nil
	}
	at := resumeAt(rec, wf)
	if from != fromPrevious {
		return at, nil
	}
	main := rec.Main()
	for i := len(main) - 1; i >= 0; i-- {
		if main[i].Name != at {
			return main[i].Name, nil
		}
	}
	return "", fault.New(fault.UserRunUnknownState, "run %s has no state before %q to resume from", rec.ID, at).
		WithHint("resume with --from current, or --from <state>")
}
