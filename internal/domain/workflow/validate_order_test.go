package workflow

import (
	"strconv"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestNeverRunReferences: a template reading a state that cannot have run by then fails every
// run, so awf validate refuses it; one that ran on some path, or earlier on every path, passes.
func TestNeverRunReferences(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *Workflow)
		want   string // "" for no NEVER_RUN error; else a part of its message
	}{
		{"an earlier state", func(*Workflow) {}, ""},
		{"a later state", func(w *Workflow) { w.States["build"].Command().Command = "echo {{.states.ask.Output}}" },
			`command of state "build" reads .states.ask, which can never have run by then: no path leads from it to here`},
		{"itself", func(w *Workflow) { w.States["build"].Command().Dir = "{{.states.build.ExitCode}}" },
			`dir of state "build" reads .states.build, which can never have run by then: it reads its own results`},
		{"itself, in a retry loop", func(w *Workflow) {
			w.States["build"].Command().Command = "echo {{.states.build.ExitCode}}"
			w.States["build"].OnFailure = "build"
		}, ""},
		{"a later state that may have run before, through a loop back", func(w *Workflow) {
			w.States["build"].Command().Command = "echo {{.states.ask.Output}}"
			w.States["ask"].OnFailure = "build"
		}, ""},
		{"a state no run enters", func(w *Workflow) {
			w.States["lost"] = &State{Name: "lost", Type: StateCommand, Spec: &CommandSpec{Command: "true"}, OnSuccess: "ask"}
			w.Order = append(w.Order, "lost")
			w.States["ask"].Agent().Prompt = "{{.states.lost.Output}}"
		}, `prompt of state "ask" reads .states.lost`},
		{"a failure terminal's message reads the failed step", func(w *Workflow) {
			w.States["failed"].Terminal().Message = "{{.states.build.Stderr}}"
		}, ""},
		{"a success terminal's message reads a state that never precedes it", func(w *Workflow) {
			w.States["failed"].Terminal().Message = "{{.states.ask.Output}}"
		}, `message of state "failed" reads .states.ask`},
		{"an unknown state is reported once, elsewhere", func(w *Workflow) { w.States["build"].Command().Command = "echo {{.states.nope.Output}}" }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := build()
			tc.change(w)
			var got []fault.Diagnostic
			for _, d := range Validate(w) {
				if d.Code == fault.UserTemplateNeverRun {
					got = append(got, d)
				}
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("unexpected: %v", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, tc.want) || got[0].Severity != fault.SeverityError):
				t.Errorf("got %v, want one error containing %q", got, tc.want)
			}
		})
	}
}

func TestTarjan(t *testing.T) {
	// 0 → 1 → 2 → 1, 2 → 3, 4 alone with a self-loop
	succ := [][]int{{1}, {2}, {1, 3}, nil, {4}}
	comp := make([]int, len(succ))
	comps := tarjan(succ, comp)
	if len(comps) != 4 || comp[1] != comp[2] || comp[0] == comp[1] || comp[3] == comp[1] {
		t.Fatalf("components %v (comp %v)", comps, comp)
	}
	if comp[3] > comp[1] || comp[1] > comp[0] {
		t.Errorf("a component must come after the ones it reaches: comp %v", comp)
	}
}

func TestReachability(t *testing.T) {
	w := build() // build → ask → done; build → failed
	w.States["ask"].OnFailure = "build"
	v := &validator{w: w, stateNames: stateNames(w), nest: NewNesting(w)}
	r := v.reachability()
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{"build", "ask", true}, {"ask", "build", true}, {"build", "build", true}, {"ask", "ask", true},
		{"build", "done", true}, {"done", "build", false}, {"done", "done", false}, {"failed", "ask", false},
		{"nope", "ask", false}, {"ask", "nope", false},
	} {
		if got := r.reaches(tc.from, tc.to); got != tc.want {
			t.Errorf("reaches(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

// TestNeverRunAcrossWords: reachability across more than one 64-bit word of states.
func TestNeverRunAcrossWords(t *testing.T) {
	const n = 150
	w := &Workflow{Name: "long", File: "wf.yaml", Initial: "s0", States: map[string]*State{}}
	for i := 0; i < n; i++ {
		name, next := "s"+strconv.Itoa(i), "s"+strconv.Itoa(i+1)
		if i == n-1 {
			next = "done"
		}
		w.States[name] = &State{Name: name, Type: StateCommand, Spec: &CommandSpec{Command: "true"}, OnSuccess: next}
		w.Order = append(w.Order, name)
	}
	w.States["done"] = &State{Name: "done", Type: StateTerminal, Spec: &TerminalSpec{Status: StatusSuccess}}
	w.Order = append(w.Order, "done")
	w.States["s149"].Command().Command = "echo {{.states.s0.Output}} {{.states.s70.Output}}"
	w.States["s3"].Command().Command = "echo {{.states.s140.Output}}"
	var got []string
	for _, d := range Validate(w) {
		got = append(got, d.Code+" "+d.Message)
	}
	if len(got) != 1 || !strings.Contains(got[0], `state "s3" reads .states.s140`) {
		t.Errorf("diagnostics %q", got)
	}
}
