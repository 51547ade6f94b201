package usecase

import (
	"context"
	"maps"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Terminals a one-step run (awf run --step) ends in, after its one state.
const (
	stepDone   = "awf-step-done"
	stepFailed = "awf-step-failed"
)

// startStep runs one state of the workflow (awf run --step S) in a scope holding the mocked
// results of other states (--mock states.X.Output=v): the state's own exits lead to a success
// or failure terminal instead of the rest of the workflow. It is recorded as any run.
func (u Run) startStep(ctx context.Context, rep validate.Report, inputs map[string]any, name string, mocks []string) error {
	wf := rep.Workflow
	st, ok := wf.States[name]
	if !ok {
		return fault.New(fault.UserCLIUnknownStep, "workflow %q has no state %q", wf.Name, name).WithHint("%s", suggest.DidYouMean(name, wf.Order))
	}
	if st.Ends() || st.Type == workflow.StateForEach || st.Type == workflow.StateWhile {
		return fault.New(fault.UserCLIInvalidArgs, "--step %s: state %q is a %s state", name, name, st.Type).
			WithHint("--step runs one command, agent, operation, call_workflow or parallel state; run a loop's body state by its name")
	}
	done, err := mocked(wf, mocks)
	if err != nil {
		return err
	}
	one := *wf
	one.States = maps.Clone(wf.States)
	only := *st
	only.OnSuccess, only.OnFailure, only.Transitions = stepDone, stepFailed, nil
	one.States[name] = &only
	one.States[stepDone] = &workflow.State{Name: stepDone, Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}}
	one.States[stepFailed] = &workflow.State{Name: stepFailed, Type: workflow.StateTerminal,
		Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: "step " + name + " failed"}}
	u.mask(wf, inputs)
	rec := u.newRecord(u.NewRunID(), wf, inputs)
	rec.Current = name
	return u.execute(ctx, &one, rec, func(r *run.Runner) (*run.Result, error) {
		return r.Resume(ctx, &one, inputs, name, done)
	})
}

// mocked turns --mock states.X.Field=value flags into results of states X, as if they had
// run: Output, Stderr, Error, ExitCode or Status (success or failure; a non-zero ExitCode
// makes it failure unless Status says otherwise).
func mocked(wf *workflow.Workflow, mocks []string) ([]run.StepResult, error) {
	byName := map[string]*run.StepResult{}
	var order []string
	for _, m := range mocks {
		key, value, ok := strings.Cut(m, "=")
		parts := strings.Split(key, ".")
		if !ok || len(parts) != 3 || parts[0] != "states" {
			return nil, fault.New(fault.UserCLIInvalidArgs, "--mock %q is not of the form states.<state>.<Field>=<value>", m).
				WithHint("for example --mock states.build.Output=build-123")
		}
		st, ok := wf.States[parts[1]]
		if !ok {
			return nil, fault.New(fault.UserCLIUnknownStep, "--mock %q: workflow %q has no state %q", m, wf.Name, parts[1]).
				WithHint("%s", suggest.DidYouMean(parts[1], wf.Order))
		}
		r := byName[st.Name]
		if r == nil {
			r = &run.StepResult{Name: st.Name, Type: string(st.Type), Status: run.StepSuccess}
			byName[st.Name] = r
			order = append(order, st.Name)
		}
		if err := setMocked(r, parts[2], value); err != nil {
			return nil, fault.New(fault.UserCLIInvalidArgs, "--mock %q: %v", m, err).
				WithHint("fields: Output, Stderr, Error, ExitCode, Status")
		}
	}
	out := make([]run.StepResult, 0, len(order))
	for _, n := range order {
		out = append(out, *byName[n])
	}
	return out, nil
}

// setMocked sets one field of a mocked result; field names are those templates read
// (states.X.Output), in any case.
func setMocked(r *run.StepResult, field, value string) error {
	switch strings.ToLower(field) {
	case "output":
		r.Output = value
	case "stderr":
		r.Stderr = value
	case "error":
		r.Error = value
	case "exitcode", "exit_code":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fault.New(fault.UserCLIInvalidArgs, "ExitCode must be a whole number, got %q", value)
		}
		r.ExitCode = n
		if n != 0 {
			r.Status = run.StepFailure
		}
	case "status":
		if value != string(run.StepSuccess) && value != string(run.StepFailure) {
			return fault.New(fault.UserCLIInvalidArgs, "Status must be success or failure, got %q", value)
		}
		r.Status = run.StepStatus(value)
	default:
		return fault.New(fault.UserCLIInvalidArgs, "no field %q", field)
	}
	return nil
}
