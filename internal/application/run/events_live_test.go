package run

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// liveShell prints each command's text as two lines through the request's live sink, one per
// stream, before it returns: what the shell runner does while the command runs.
type liveShell struct{}

func (s *liveShell) RunCommand(_ context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	if req.Live == nil {
		return ports.CommandResult{ExitCode: 9, Stderr: "no live sink"}, nil
	}
	req.Live(false, "out "+req.Shown)
	req.Live(true, "err "+req.Shown)
	return ports.CommandResult{Stdout: "out " + req.Shown + "\n"}, nil
}

// TestCommandLinesAreEventsOfTheirStep: each line a command prints is a StepOutput of that
// step, with its iteration, between the step's start and its end; a sub-workflow's step is
// named after its call, as its other events are.
func TestCommandLinesAreEventsOfTheirStep(t *testing.T) {
	wf := parseFlow(t, `name: t
states:
  initial: each
  each:
    type: for_each
    items: [a, b]
    body: [body]
    on_complete: done
  body: {type: command, command: 'echo {{.loop.Item}}'}
  done: {type: terminal}
`)
	rec := &recorder{}
	if _, err := newRun(t, Options{Commands: &liveShell{}, Observer: rec}).Run(context.Background(), wf, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.events {
		switch e := e.(type) {
		case StepStarted:
			got = append(got, "start "+e.Within+" "+e.Name)
		case StepOutput:
			got = append(got, fmt.Sprintf("line %s %s %v %s", e.Within, e.Name, e.Stderr, e.Line))
		case StepFinished:
			got = append(got, "end "+e.Step.Within+" "+e.Step.Name)
		}
	}
	want := []string{"start  each",
		"start each[0] body", "line each[0] body false out echo a", "line each[0] body true err echo a", "end each[0] body",
		"start each[1] body", "line each[1] body false out echo b", "line each[1] body true err echo b", "end each[1] body",
		"end  each"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}

	child := machine("child", nil, cmdState("work", "work", "ok", "ko"))
	parent := machine("parent", nil, callState("call", "child", nil, nil, "ok", "ko"))
	rec = &recorder{}
	src := &fakeSource{wfs: map[string]*workflow.Workflow{"child": child}}
	if _, err := newRun(t, Options{Commands: &liveShell{}, Workflows: src, Observer: rec}).Run(context.Background(), parent, nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range rec.events {
		if o, ok := e.(StepOutput); ok {
			names = append(names, o.Name+": "+o.Line)
		}
	}
	if !reflect.DeepEqual(names, []string{"call/work: out work", "call/work: err work"}) {
		t.Errorf("sub-workflow lines %q", names)
	}
}
