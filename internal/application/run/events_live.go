package run

import "context"

// StepOutput is one line a running command step wrote, as it wrote it, so the console can show
// a long step while it runs (docs/guide/workflows.md, "Watching a run"). The step's result
// still carries its whole output when it ends. Line is the command's text as it is: an
// observer masks secrets and escapes control characters before showing it.
type StepOutput struct {
	Name string
	// Within is the loop iteration or parallel state the step runs in, "" in the main flow.
	Within string
	Stderr bool
	Line   string
}

func (StepOutput) event() {}

// liveLines is the sink a command runner feeds the lines of step name's output to, as events
// of the walk ctx belongs to (a sub-workflow's renamed by its call), or nil outside a walk.
func liveLines(ctx context.Context, name string, scope Scope) func(stderr bool, line string) {
	f, ok := frameOf(ctx)
	if !ok || f.sched == nil || f.sched.events == nil {
		return nil
	}
	events, within := f.sched.events, scope.within()
	return func(stderr bool, line string) {
		events.Observe(StepOutput{Name: name, Within: within, Stderr: stderr, Line: line})
	}
}
