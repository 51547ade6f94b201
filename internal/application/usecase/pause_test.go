package usecase

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestPauserAnswers(t *testing.T) {
	wf := flow(agentState())
	tests := []struct {
		name, input string
		all         bool
		breaks      []string
		events      []run.Event
		aborted     bool
		asked       int
	}{
		{"continue at every main state", "c\n\n", true, nil, []run.Event{run.StepStarted{Name: "ask"}, run.StepStarted{Name: "x", Within: "l[0]"}, run.StepStarted{Name: "done"}}, false, 2},
		{"abort", "a\n", true, nil, []run.Event{run.StepStarted{Name: "ask"}}, true, 1},
		{"breakpoint only, also within a loop", "c\n", false, []string{"done"}, []run.Event{run.StepStarted{Name: "ask"}, run.StepStarted{Name: "done", Within: "l[0]"}}, false, 1},
		{"run to the end", "r\n", true, nil, []run.Event{run.StepStarted{Name: "ask"}, run.StepStarted{Name: "done"}}, false, 1},
		{"inspect then unknown then continue", "i\nzz\nc\n", true, nil, []run.Event{run.StepStarted{Name: "ask"}}, false, 3},
		{"input ends", "", true, nil, []run.Event{run.StepStarted{Name: "ask"}, run.StepStarted{Name: "done"}}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			aborted := false
			p, err := newPauser(wf, strings.NewReader(tt.input), &out, tt.all, tt.breaks, func() { aborted = true })
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tt.events {
				p.Observe(e)
			}
			if aborted != tt.aborted || strings.Count(out.String(), "⏸") != tt.asked {
				t.Fatalf("aborted %v, asked %d times; want %v, %d\n%s", aborted, strings.Count(out.String(), "⏸"), tt.aborted, tt.asked, out.String())
			}
		})
	}
	if _, err := newPauser(wf, nil, nil, false, []string{"ask,nope"}, func() {}); fault.CodeOf(err) != fault.UserCLIUnknownStep {
		t.Fatalf("unknown breakpoint: %v", err)
	}
}

func TestStartGuard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	inner := &countingRunner{}
	if _, err := (startGuard{inner}).RunCommand(ctx, ports.CommandRequest{Command: "true"}); err == nil || inner.n != 0 {
		t.Fatalf("a command started after the run was aborted: %v, %d", err, inner.n)
	}
}

type countingRunner struct{ n int }

func (c *countingRunner) RunCommand(context.Context, ports.CommandRequest) (ports.CommandResult, error) {
	c.n++
	return ports.CommandResult{}, nil
}

func TestMocked(t *testing.T) {
	wf := flow(agentState())
	got, err := mocked(wf, []string{"states.ask.Output=hi", "states.ask.exitcode=3", "states.done.Status=failure"})
	if err != nil || len(got) != 2 || got[0].Output != "hi" || got[0].ExitCode != 3 || got[0].Status != run.StepFailure || got[1].Name != "done" || got[1].Status != run.StepFailure {
		t.Fatalf("mocked: %+v %v", got, err)
	}
	for _, bad := range []string{"ask=1", "states.nope.Output=1", "states.ask.Colour=1", "states.ask.Status=maybe", "states.ask.ExitCode=x"} {
		if _, err := mocked(wf, []string{bad}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
