package run

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/runinputs"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// callExecutor runs call_workflow states: the called workflow runs as nested steps of the
// caller, in a scope of its own (its own inputs, checked by its own rules, and its own states),
// under the caller's step span and timeout.
//
// The state's result: Status success when the sub-workflow reached a success terminal, failure
// (on_failure applies) when it ended in a failure terminal, a step of it failed without
// on_failure, or its inputs do not fit; Output is the Output of the last step it ran; Response
// holds the mapped `outputs:` by the caller's names. A called workflow that cannot be loaded, a
// cycle, a chain deeper than workflow.MaxCallDepth and an error in the sub-workflow itself stop
// the run, as they do in the reference awf.
type callExecutor struct {
	source ports.WorkflowSource
	env    map[string]string
}

// Execute implements Executor.
func (x callExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	f, ok := frameOf(ctx)
	if !ok || x.source == nil {
		return Outcome{}, Stop(fault.New(fault.SystemRunSetup, "state %q calls a workflow, but this run has no workflow source", st.Name))
	}
	spec := st.Call()
	callee, err := x.load(f, st, spec)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	chain := append(slices.Clone(f.chain), callee.Name)
	if len(f.chain) > workflow.MaxCallDepth {
		return Outcome{}, Stop(workflow.CallDepthError(st.Name, chain))
	}
	if slices.Contains(f.files, cleanFile(callee.File)) {
		return Outcome{}, Stop(workflow.CallCycleError(st.Name, chain))
	}
	given := make(map[string]string, len(spec.Inputs))
	for _, k := range spec.InputOrder {
		v, err := render(st.Name+".inputs."+k, spec.Inputs[k], scope, st.ValueAt("inputs."+k))
		if err != nil {
			return Outcome{}, Stop(err)
		}
		given[k] = v
	}
	inputs, ds := runinputs.ResolveInputs(callee, given)
	if ds.HasErrors() {
		return failedCall(fmt.Sprintf("the inputs of workflow %q do not fit: %s", callee.Name, inputError(ds).Error())), nil
	}
	if missing := workflow.MissingEnv(callee, x.env); len(missing) > 0 {
		return failedCall(fmt.Sprintf("workflow %q needs the environment variables %s", callee.Name, strings.Join(missing, ", "))), nil
	}
	rec := newCallRecorder(st.Name, f.sched.events)
	sub := *f.sched
	sub.events = rec
	log := f.log.With(zap.String("call", st.Name), zap.String("called_workflow", callee.Name))
	sctx := withFrame(ctx, frame{sched: &sub, log: log, chain: chain, files: append(slices.Clone(f.files), cleanFile(callee.File))})
	base := NewScope(inputs, scope.env, WorkflowInfo{ID: scope.workflow.ID, Name: callee.Name, Dir: workflowDir(callee)})
	if scope.host != nil {
		// The callee sees the same machine (.awf, .context, readFile) but none of the caller's
		// current state or error.
		base = base.withHost(scope.host.host, scope.host.started, scope.host.readFile)
	}
	log.Info("sub-workflow started")
	end := sub.walk(sctx, callee, base, log)
	log.Info("sub-workflow ended", zap.String("status", end.status))
	return callRun{spec: spec, callee: callee, rec: rec, base: base}.outcome(ctx, end)
}

// load finds the called workflow beside the caller's file, refusing one with errors.
func (x callExecutor) load(f frame, st *workflow.State, spec *workflow.CallSpec) (*workflow.Workflow, error) {
	callee, ds, err := x.source.Callee(f.files[len(f.files)-1], spec.Workflow)
	if err != nil {
		return nil, fault.Wrap(err, fault.ExecutionCallLoad, "state %q cannot load workflow %q", st.Name, spec.Workflow).At(st.ValueAt("workflow"))
	}
	if errs := ds.Errors(); len(errs) > 0 {
		return nil, fault.New(fault.UserCallInvalidCallee, "workflow %q called by state %q is invalid: %s", spec.Workflow, st.Name, errs[0].String()).
			WithHint("run awf validate on it")
	}
	return callee, nil
}

// callRun is a call whose sub-workflow ran: what it called, the recorder of the sub-workflow's
// steps and the scope its walk started from.
type callRun struct {
	spec   *workflow.CallSpec
	callee *workflow.Workflow
	rec    *callRecorder
	base   Scope
}

// outcome turns how the sub-workflow ended into the call's result.
func (c callRun) outcome(ctx context.Context, end ending) (Outcome, error) {
	spec, callee := c.spec, c.callee
	if err := ctx.Err(); err != nil {
		return Outcome{Status: StepFailure}, err // the scheduler tells a timeout from Ctrl+C
	}
	switch end.status {
	case RunSuccess:
	case RunFailure:
		return failedCall(fmt.Sprintf("workflow %q failed: %s", callee.Name, end.err)), nil
	case RunInterrupted:
		return Outcome{Status: StepFailure}, end.err
	default:
		return Outcome{}, Stop(end.err)
	}
	out := Outcome{Status: StepSuccess}
	if last, ok := c.rec.last(); ok {
		out.Output = last.Output
	}
	if len(spec.OutputOrder) == 0 {
		return out, nil
	}
	final := c.rec.scope(c.base)
	out.Response = make(map[string]any, len(spec.OutputOrder))
	for _, from := range spec.OutputOrder {
		v, err := calleeOutput(callee, from, final)
		if err != nil {
			return failedCall(fmt.Sprintf("output %q of workflow %q: %v", from, callee.Name, err)), nil
		}
		out.Response[spec.Outputs[from]] = v
	}
	return out, nil
}

// calleeOutput is the value named `from` in the sub-workflow's final scope: a declared output,
// else the Output of the state of that name.
func calleeOutput(callee *workflow.Workflow, from string, final Scope) (string, error) {
	for _, o := range callee.Outputs {
		if o.Name == from {
			return render(callee.Name+".outputs."+from, o.Template(), final, o.Pos)
		}
	}
	if d, ok := final.State(from); ok {
		return d.Output, nil
	}
	return "", fmt.Errorf("state %q did not run", from)
}

func failedCall(msg string) Outcome {
	return Outcome{Status: StepFailure, ExitCode: 1, Error: msg}
}
