package usecase

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/internal/application/runinputs"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// RunOrResume is `awf run --resume-if-interrupted`: when the run store holds an interrupted or
// crashed run of the same workflow file with the same inputs, that run is resumed in its own id
// (its finished steps are not run again); otherwise a new run starts as Do starts it. This is
// what lets a rescheduled Kubernetes pod or a retried CI job continue instead of starting over
// (docs/guide/ci.md). A workflow or inputs that do not check out go to Do, which reports them.
func (u Run) RunOrResume(ctx context.Context, req RunRequest) error {
	if id := u.interruptedRun(ctx, req); id != "" && !req.DryRun {
		return u.Resume(ctx, ResumeRequest{ID: id})
	}
	return u.Do(ctx, req)
}

// interruptedRun returns the id of the newest resumable run matching req, or "".
func (u Run) interruptedRun(ctx context.Context, req RunRequest) string {
	if u.Runs == nil {
		return ""
	}
	rep, err := u.Validator.Validate(ctx, req.Target)
	if err != nil || !rep.Valid() {
		return ""
	}
	given, ds := runinputs.ParseInputFlags(req.Inputs)
	if ds.HasErrors() {
		return ""
	}
	inputs, ids := runinputs.InputResolver{Paths: u.Paths, Root: u.Root}.Resolve(rep.Workflow, given)
	if ids.HasErrors() {
		return ""
	}
	want, err := canonical(inputs)
	if err != nil {
		return ""
	}
	recs, err := u.Runs.List()
	if err != nil {
		return ""
	}
	for _, rec := range recs { // newest first
		if rec.File != rep.Workflow.File || rec.Workflow != rep.Workflow.Name || !interrupted(rec, u.Runs.Alive) {
			continue
		}
		if got, err := canonical(rec.Inputs); err == nil && got == want {
			return rec.ID
		}
	}
	return ""
}

// interrupted says whether rec stopped before its end: stopped by a signal (interrupted) or
// gone with its process (crashed). A failed run is a result, not an interruption: it is not
// picked up again (awf resume continues one when asked).
func interrupted(rec runrecord.Record, alive func(pid int) bool) bool {
	s := rec.Effective(alive)
	return s == runrecord.Interrupted || s == runrecord.Crashed
}

// canonical is inputs as compared: their JSON, which has sorted keys and the same form for a
// freshly resolved int64 and the float64 a record read back holds.
func canonical(inputs map[string]any) (string, error) {
	if inputs == nil {
		inputs = map[string]any{}
	}
	b, err := json.Marshal(inputs)
	return string(b), err
}
