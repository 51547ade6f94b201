package validate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CallCheck checks the call_workflow states of a workflow against the workflows they call,
// loaded through src as the run engine loads them:
//
//   - USER.CALL.UNKNOWN_WORKFLOW: the called workflow does not exist (did-you-mean);
//   - USER.CALL.INVALID_CALLEE: the called workflow has errors of its own, each reported at its
//     own file:line:col (the code it would have alone is kept in the message);
//   - USER.CALL.CYCLE: the calls go round (a → b → a), reported at the `workflow:` value of the
//     state that enters the cycle, with the whole chain named; the reference awf only finds
//     this at run time, after the first steps ran;
//   - USER.CALL.TOO_DEEP: a chain of calls known to nest deeper than the run-time limit;
//   - USER.CALL.UNKNOWN_INPUT / MISSING_INPUT: an input the callee does not declare, or a
//     required one without default that is not passed;
//   - USER.CALL.UNKNOWN_OUTPUT: an `outputs:` key that is neither an output nor a state of the callee.
//
// Called workflows are followed as deep as they call, each file read once; the checks in others
// (plugins, expressions, operations) run on each called workflow too, so `awf validate` of the
// caller finds what a run of the callee would meet.
func CallCheck(src ports.WorkflowSource, others ...Check) Check {
	return func(ctx context.Context, wf *workflow.Workflow) fault.Diagnostics {
		c := &callChecker{ctx: ctx, others: others, src: src, files: map[string]*calleeFile{}, reported: map[string]bool{wf.File: true}}
		c.root(wf)
		return c.ds
	}
}

// calleeFile is one loaded workflow and where its calls lead.
type calleeFile struct {
	wf *workflow.Workflow
	ds fault.Diagnostics
}

type callChecker struct {
	ctx      context.Context
	others   []Check
	src      ports.WorkflowSource
	ds       fault.Diagnostics
	files    map[string]*calleeFile // by "from\x00name"
	reported map[string]bool        // files whose own problems are already reported
}

// load finds the workflow state s of wf calls, reporting a missing one at its `workflow:` value.
func (c *callChecker) load(wf *workflow.Workflow, s *workflow.State) *workflow.Workflow {
	call := s.Call()
	key := wf.File + "\x00" + call.Workflow
	cf, ok := c.files[key]
	if !ok {
		callee, ds, err := c.src.Callee(wf.File, call.Workflow)
		cf = &calleeFile{wf: callee, ds: ds}
		c.files[key] = cf
		if err != nil {
			var fe *fault.Error
			hint := "create it in .awf/workflows, or fix the name"
			if errors.As(err, &fe) && fe.Hint != "" {
				hint = fe.Hint
			}
			c.ds.Errorf(s.ValueAt("workflow"), fault.UserCallUnknownWorkflow, hint, "state %q calls workflow %q, which cannot be loaded: %s", s.Name, call.Workflow, message(err))
		}
	}
	if cf.wf != nil && !c.reported[cf.wf.File] {
		c.reported[cf.wf.File] = true
		ds := cf.ds
		for _, check := range c.others {
			ds = append(ds, check(c.ctx, cf.wf)...)
		}
		for _, d := range ds {
			d.Message = fmt.Sprintf("in called workflow %s: %s [%s]", filepath.Base(cf.wf.File), d.Message, d.Code)
			if d.Severity == fault.SeverityError {
				d.Code = fault.UserCallInvalidCallee
			}
			c.ds = append(c.ds, d)
		}
	}
	return cf.wf
}

// root checks each call state of the validated workflow, then follows its callees.
func (c *callChecker) root(wf *workflow.Workflow) {
	for _, name := range wf.Order {
		s := wf.States[name]
		if s == nil || s.Call() == nil || s.Call().Workflow == "" {
			continue
		}
		callee := c.load(wf, s)
		if callee == nil {
			continue
		}
		c.inputs(s, callee)
		c.outputs(s, callee)
		chain := []string{displayName(wf), displayName(callee)}
		files := []string{filepath.Clean(wf.File), filepath.Clean(callee.File)}
		if files[0] == files[1] {
			c.cycle(s, chain, nil)
			continue
		}
		c.follow(s, callee, chain, files, map[string]bool{})
	}
}

// follow walks the calls of callee, reached from state entry of the root through chain, and
// reports the first cycle or over-deep chain found.
func (c *callChecker) follow(entry *workflow.State, callee *workflow.Workflow, chain, files []string, done map[string]bool) bool {
	if len(chain)-1 > workflow.MaxCallDepth {
		c.ds.Errorf(entry.ValueAt("workflow"), fault.UserCallTooDeep, "flatten the chain of call_workflow states",
			"state %q starts a chain of %d nested calls (%s): the limit is %d", entry.Name, len(chain)-1, workflow.CallChain(chain), workflow.MaxCallDepth)
		return true
	}
	if done[callee.File] {
		return false
	}
	for _, name := range callee.Order {
		s := callee.States[name]
		if s == nil || s.Call() == nil || s.Call().Workflow == "" {
			continue
		}
		next := c.load(callee, s)
		if next == nil {
			continue
		}
		if slices.Contains(files, filepath.Clean(next.File)) {
			c.cycle(entry, append(slices.Clone(chain), displayName(next)), &closing{s, callee})
			return true
		}
		if c.follow(entry, next, append(slices.Clone(chain), displayName(next)), append(slices.Clone(files), filepath.Clean(next.File)), done) {
			return true
		}
	}
	done[callee.File] = true
	return false
}

// closing is the call state that closes a cycle, in the workflow holding it.
type closing struct {
	s  *workflow.State
	wf *workflow.Workflow
}

func (c *callChecker) cycle(entry *workflow.State, chain []string, by *closing) {
	msg := fmt.Sprintf("state %q calls workflows in a circle: %s", entry.Name, workflow.CallChain(chain))
	if by != nil {
		msg += fmt.Sprintf(" (closed by state %q at %s)", by.s.Name, by.s.ValueAt("workflow"))
	}
	c.ds.Errorf(entry.ValueAt("workflow"), fault.UserCallCycle, "a workflow may not call itself, directly or through others; break the circle", "%s", msg)
}

// inputs checks the names passed against the callee's inputs.
func (c *callChecker) inputs(s *workflow.State, callee *workflow.Workflow) {
	call := s.Call()
	declared := make([]string, 0, len(callee.Inputs))
	for _, in := range callee.Inputs {
		declared = append(declared, in.Name)
	}
	for _, k := range call.InputOrder {
		if slices.Contains(declared, k) {
			continue
		}
		hint := "workflow " + displayName(callee) + " declares no inputs"
		if len(declared) > 0 {
			hint = suggest.DidYouMean(k, declared)
		}
		c.ds.Errorf(s.KeyAt("inputs."+k), fault.UserCallUnknownInput, hint, "state %q passes input %q, which workflow %q does not declare", s.Name, k, displayName(callee))
	}
	for _, in := range callee.Inputs {
		if !in.Required || in.Default != nil {
			continue
		}
		if _, ok := call.Inputs[in.Name]; ok {
			continue
		}
		c.ds.Errorf(s.KeyAt("inputs"), fault.UserCallMissingInput, fmt.Sprintf("add `%s: <value>` under `inputs:`", in.Name),
			"state %q does not pass required input %q of workflow %q", s.Name, in.Name, displayName(callee))
	}
}

// outputs checks the keys of `outputs:`: each names an output the callee declares, or one of
// its states (whose Output is taken, as the reference awf reads it).
func (c *callChecker) outputs(s *workflow.State, callee *workflow.Workflow) {
	call := s.Call()
	known := append(callee.OutputNames(), callee.Order...)
	for _, k := range call.OutputOrder {
		if slices.Contains(known, k) {
			continue
		}
		hint := suggest.DidYouMean(k, known)
		if v := call.Outputs[k]; slices.Contains(known, v) {
			hint = fmt.Sprintf("the key is the callee's name and the value the caller's: write `%s: %s`", v, k)
		}
		c.ds.Errorf(s.KeyAt("outputs."+k), fault.UserCallUnknownOutput, hint,
			"outputs.%s of state %q names neither an output nor a state of workflow %q", k, s.Name, displayName(callee))
	}
}

func displayName(wf *workflow.Workflow) string {
	if wf.Name != "" {
		return wf.Name
	}
	return filepath.Base(wf.File)
}
