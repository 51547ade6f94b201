package workflow

import (
	"slices"
	"testing"
)

// flowBuild is a valid workflow with a for_each whose body holds a command and a nested
// while, then a parallel state with two branches.
//
//	initial: files → for_each files {body: [show, retry]} → on_complete: checks
//	retry: while {body: [attempt]}, on_complete: files
//	checks: parallel [lint, test] → done
func flowBuild() *Workflow {
	w := &Workflow{Name: "f", File: "wf.yaml", Initial: "files", States: map[string]*State{}}
	add := func(s *State) {
		w.States[s.Name] = s
		w.Order = append(w.Order, s.Name)
	}
	add(&State{Name: "files", Type: StateForEach, Pos: p(3, 3), Spec: &ForEachSpec{Items: `["a"]`, LoopSpec: LoopSpec{Body: []string{"show", "retry"}, OnComplete: "checks"}}})
	add(&State{Name: "show", Type: StateCommand, Pos: p(8, 3), OnSuccess: "files", Spec: &CommandSpec{Command: "echo {{.loop.Item}}"}})
	add(&State{Name: "retry", Type: StateWhile, Pos: p(11, 3), Spec: &WhileSpec{While: "loop.Index < 3", LoopSpec: LoopSpec{Body: []string{"attempt"}, BreakWhen: "states.attempt.ExitCode == 0", OnComplete: "files"}}})
	add(&State{Name: "attempt", Type: StateCommand, Pos: p(16, 3), OnSuccess: "retry", Spec: &CommandSpec{Command: "echo {{.loop.Parent.Item}} {{.loop.index1}}"}})
	add(&State{Name: "checks", Type: StateParallel, Pos: p(19, 3), OnSuccess: "done", OnFailure: "done", Spec: &ParallelSpec{Branches: []string{"lint", "test"}}})
	add(&State{Name: "lint", Type: StateCommand, Pos: p(23, 3), Spec: &CommandSpec{Command: "true"}})
	add(&State{Name: "test", Type: StateCommand, Pos: p(25, 3), OnSuccess: "done", Spec: &CommandSpec{Command: "true"}})
	add(&State{Name: "done", Type: StateTerminal, Pos: p(27, 3), Spec: &TerminalSpec{Status: StatusSuccess}})
	return w
}

func TestFlowValid(t *testing.T) {
	if ds := Validate(flowBuild()); len(ds) != 0 {
		t.Fatalf("a valid flow workflow has diagnostics: %v", ds)
	}
}

// TestFlowValidateCases breaks the flow workflow one way per case.
func TestFlowValidateCases(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []diag
	}{
		{"a body state entered from the main flow", func(w *Workflow) {
			w.States["checks"].OnFailure = "show"
			wrote(w.States["checks"], "on_failure", p(21, 5), p(21, 17))
		}, []diag{{"USER.WORKFLOW.MEMBER_ENTERED@21:17", `on_failure of state "checks" enters "show", which only "files" runs`, `go to "files" instead`}}},
		{"a branch entered by a transition", func(w *Workflow) {
			w.States["checks"].Transitions = []Transition{{When: "true", Goto: "lint"}}
		}, []diag{{"USER.WORKFLOW.MEMBER_ENTERED@19:3", `transitions[0].goto of state "checks" enters "lint", which only "checks" runs`, ""}}},
		{"initial is a body state", func(w *Workflow) {
			w.Initial = "show"
			wroteTop(w, "states.initial", p(2, 3), p(2, 12))
		}, []diag{{"USER.WORKFLOW.MEMBER_ENTERED@2:12", `initial state "show" is run by "files"`, `start at "files"`}}},
		{"an inner body state may go to the outer body", func(w *Workflow) {
			w.States["attempt"].OnFailure = "show"
		}, nil},
		{"an unknown body state", func(w *Workflow) {
			w.States["files"].Loop().Body = []string{"show", "retry", "shwo"}
			wrote(w.States["files"], "body[2]", p(5, 20), p(5, 20))
		}, []diag{{"USER.WORKFLOW.UNKNOWN_TARGET@5:20", `body[2] of state "files" names unknown state "shwo"`, "did you mean 'show'?"}}},
		{"a loop listing itself", func(w *Workflow) {
			w.States["files"].Loop().Body = []string{"show", "retry", "files"}
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@3:3", `state "files" lists itself in its body`, ""}}},
		{"a state listed twice", func(w *Workflow) {
			w.States["checks"].Parallel().Branches = []string{"lint", "test", "lint"}
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@19:3", `state "checks" lists "lint" twice in its parallel`, "remove the second mention"}}},
		{"a terminal in a body", func(w *Workflow) {
			w.States["checks"].Parallel().Branches = []string{"lint", "test", "done"}
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@19:3", `parallel of state "checks" lists terminal state "done"`, ""}}},
		{"a state run by two", func(w *Workflow) {
			w.States["checks"].Parallel().Branches = []string{"lint", "test", "show"}
			wrote(w.States["checks"], "parallel[2]", p(20, 26), p(20, 26))
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@20:26", `state "show" is already run by "files"`, `give "checks" its own copy`}}},
		{"two loops running each other", func(w *Workflow) {
			w.States["retry"].Loop().Body = []string{"attempt", "files"}
			w.Initial = "checks"
			w.States["checks"].OnSuccess, w.States["checks"].OnFailure = "done", ""
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@3:3", `states "files" and "retry" run each other`, ""}, {"USER.WORKFLOW.UNREACHABLE_STATE@3:3", "", ""},
			{"USER.WORKFLOW.UNREACHABLE_STATE@8:3", "", ""}, {"USER.WORKFLOW.INVALID_MEMBER@11:3", `states "retry" and "files" run each other`, ""},
			{"USER.WORKFLOW.MEMBER_ENTERED@11:3", "", ""}, {"USER.WORKFLOW.UNREACHABLE_STATE@11:3", "", ""}, {"USER.WORKFLOW.UNREACHABLE_STATE@16:3", "", ""}}},
		{"an empty body", func(w *Workflow) {
			w.States["retry"].Loop().Body = nil
			delete(w.States, "attempt")
			wrote(w.States["retry"], "body", p(13, 5), p(13, 11))
		}, []diag{{"USER.WORKFLOW.EMPTY_BODY@13:5", `while state "retry" has no body`, "`body: [build, test]`"}}},
		{"no branches", func(w *Workflow) {
			w.States["checks"].Parallel().Branches = nil
			delete(w.States, "lint")
			delete(w.States, "test")
		}, []diag{{"USER.WORKFLOW.EMPTY_BODY@19:3", `parallel state "checks" has no parallel`, "`parallel: [build, test]`"}}},
		{"no items", func(w *Workflow) { w.States["files"].ForEach().Items = "" },
			[]diag{{"USER.WORKFLOW.MISSING_ITEMS@3:3", `for_each state "files" has no items`, "add `items:`"}}},
		{"a YAML list of items needs no text", func(w *Workflow) {
			fe := w.States["files"].ForEach()
			fe.Items, fe.IsList, fe.ItemList = "", true, []any{"a", int64(2)}
		}, nil},
		{"a template item is checked", func(w *Workflow) {
			fe := w.States["files"].ForEach()
			fe.Items, fe.IsList, fe.ItemList = "", true, []any{"{{.inputs.nope}}"}
		}, []diag{{"USER.TEMPLATE.UNKNOWN_INPUT@3:3", `items[0] of state "files" refers to undeclared input "nope"`, ""}}},
		{"max_iterations above the cap", func(w *Workflow) {
			w.States["retry"].Loop().MaxIterations = MaxIterationsCap + 1
			wrote(w.States["retry"], "max_iterations", p(14, 5), p(14, 21))
		}, []diag{{"USER.WORKFLOW.MAX_ITERATIONS@14:21", `max_iterations of state "retry" is 10001; it must be from 1 to 10000`, "from 1 to 10000"}}},
		{"max_iterations of zero", func(w *Workflow) {
			w.States["retry"].Loop().MaxIterations = 0
			wrote(w.States["retry"], "max_iterations", p(14, 5), p(14, 21))
		}, []diag{{"USER.WORKFLOW.MAX_ITERATIONS@14:21", "is 0", ""}}},
		{"max_iterations at the cap", func(w *Workflow) {
			w.States["retry"].Loop().MaxIterations = MaxIterationsCap
			wrote(w.States["retry"], "max_iterations", p(14, 5), p(14, 21))
		}, nil},
		{"max_iterations of one", func(w *Workflow) {
			w.States["retry"].Loop().MaxIterations = 1
			wrote(w.States["retry"], "max_iterations", p(14, 5), p(14, 21))
		}, nil},
		{"quoted counts at the bounds", func(w *Workflow) {
			w.States["retry"].Loop().MaxIterationsExpr = "1"
			w.States["files"].Loop().MaxIterationsExpr = "10000"
		}, nil},
		{"max_concurrent of one", func(w *Workflow) {
			w.States["checks"].Parallel().MaxConcurrent = 1
			wrote(w.States["checks"], "max_concurrent", p(22, 5), p(22, 21))
		}, nil},
		{"a terminal listed in a body stays out of the nesting", func(w *Workflow) {
			w.States["checks"].Parallel().Branches = []string{"lint", "test", "done"}
			w.States["show"].OnFailure = "done"
		}, []diag{{"USER.WORKFLOW.INVALID_MEMBER@19:3", `lists terminal state "done"`, ""}}},
		{"a quoted count above the cap", func(w *Workflow) { w.States["retry"].Loop().MaxIterationsExpr = " 10001 " },
			[]diag{{"USER.WORKFLOW.MAX_ITERATIONS@11:3", "is 10001", ""}}},
		{"a quoted count of zero", func(w *Workflow) { w.States["retry"].Loop().MaxIterationsExpr = "0" },
			[]diag{{"USER.WORKFLOW.MAX_ITERATIONS@11:3", "is 0", ""}}},
		{"a computed count is checked as a template", func(w *Workflow) { w.States["retry"].Loop().MaxIterationsExpr = "{{.inputs.limit}} * 2" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_INPUT@11:3", `max_iterations of state "retry" refers to undeclared input "limit"`, ""}}},
		{"an unknown on_complete", func(w *Workflow) {
			w.States["retry"].Loop().OnComplete = "fils"
			wrote(w.States["retry"], "on_complete", p(15, 5), p(15, 18))
		}, []diag{{"USER.WORKFLOW.UNKNOWN_TARGET@15:18", `on_complete of state "retry" names unknown state "fils"`, "did you mean 'files'?"}}},
		{"a loop with neither on_complete nor on_success", func(w *Workflow) { w.States["files"].Loop().OnComplete = "" },
			[]diag{{"USER.WORKFLOW.NO_EXIT@3:3", `state "files" has no on_success`, ""}}},
		{"on_success stands in for on_complete", func(w *Workflow) {
			w.States["files"].Loop().OnComplete, w.States["files"].OnSuccess = "", "checks"
		}, nil},
		{"an unknown strategy", func(w *Workflow) {
			w.States["checks"].Parallel().Strategy = "all_succed"
			wrote(w.States["checks"], "strategy", p(21, 5), p(21, 15))
		}, []diag{{"USER.WORKFLOW.INVALID_STRATEGY@21:15", `parallel state "checks" has unknown strategy "all_succed"`, "did you mean 'all_succeed'?"}}},
		{"max_concurrent below 1", func(w *Workflow) {
			w.States["checks"].Parallel().MaxConcurrent = 0
			wrote(w.States["checks"], "max_concurrent", p(22, 5), p(22, 21))
		}, []diag{{"USER.WORKFLOW.INVALID_CONCURRENCY@22:21", `max_concurrent of state "checks" is 0`, ""}}},
		{".loop outside any loop", func(w *Workflow) { w.States["lint"].Command().Command = "echo {{.loop.Index}}" },
			[]diag{{"USER.TEMPLATE.LOOP_OUTSIDE@23:3", `command of state "lint" reads .loop.Index, but no loop runs this state`, ""}}},
		{".loop.Parent in a loop without a parent", func(w *Workflow) { w.States["show"].Command().Command = "echo {{.loop.Parent.Item}}" },
			[]diag{{"USER.TEMPLATE.LOOP_OUTSIDE@8:3", "no enclosing loop runs this loop", ""}}},
		{"an unknown loop field", func(w *Workflow) { w.States["show"].Command().Command = "echo {{.loop.Itme}}" },
			[]diag{{"USER.TEMPLATE.LOOP_OUTSIDE@8:3", `loop has no field "Itme"`, ""}}},
		{"fields of an item are free", func(w *Workflow) {
			w.States["show"].Command().Command = "echo {{.loop.Item.name.first}} {{.loop.last}}"
		}, nil},
		{"a branch inside a loop sees the loop", func(w *Workflow) {
			w.States["files"].Loop().Body = []string{"show", "retry", "checks"}
			w.Initial = "files"
			w.States["files"].Loop().OnComplete = "done"
			w.States["checks"].OnSuccess, w.States["checks"].OnFailure = "", ""
			w.States["lint"].Command().Command = "echo {{.loop.Item}}"
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := flowBuild()
			tt.mutate(w)
			expectDiags(t, Validate(w), tt.want)
		})
	}
}

func TestNesting(t *testing.T) {
	w := flowBuild()
	n := NewNesting(w)
	for name, want := range map[string]int{"files": 0, "show": 1, "retry": 1, "attempt": 2, "checks": 0, "lint": 0} {
		if got := n.LoopDepth(name); got != want {
			t.Errorf("LoopDepth(%s) = %d, want %d", name, got, want)
		}
	}
	if n.Owner("attempt") != "retry" || n.Owner("files") != "" || n.Owner("lint") != "checks" {
		t.Errorf("owners wrong: %v", n.owner)
	}
	if !n.Inside("attempt", "files") || !n.Inside("files", "files") || n.Inside("lint", "files") || n.Inside("files", "retry") {
		t.Error("Inside is wrong")
	}
	if got := w.States["files"].SuccessTarget(); got != "checks" {
		t.Errorf("SuccessTarget = %q", got)
	}
	if got := w.States["checks"].SuccessTarget(); got != "done" {
		t.Errorf("SuccessTarget of parallel = %q", got)
	}
	w.States["retry"].Loop().MaxIterationsExpr = "{{.inputs.a}} * {{ .inputs.b }}"
	ex := w.States["retry"].Expressions()
	want := []ExprField{{Key: "while", Text: "loop.Index < 3", OwnLoop: true}, {Key: "break_when", Text: "states.attempt.ExitCode == 0", OwnLoop: true}, {Key: "max_iterations", Text: "1 * 1", Count: true}}
	if !slices.Equal(ex, want) {
		t.Errorf("Expressions = %+v", ex)
	}
	if w.States["show"].Loop() != nil || w.States["show"].Members() != nil || w.States["checks"].Members()[1] != "test" {
		t.Error("accessors of other kinds")
	}
}

func TestLoopPathOK(t *testing.T) {
	tests := []struct {
		path  []string
		depth int
		ok    bool
	}{
		{nil, 1, true},
		{[]string{"Item"}, 1, true},
		{[]string{"Item", "x", "y"}, 1, true},
		{[]string{"Parent", "Item"}, 1, false},
		{[]string{"parent", "index"}, 2, true},
		{[]string{"Parent", "Parent", "Item"}, 2, false},
		{[]string{"Parent", "Parent", "Item"}, 3, true},
		{[]string{"Nope"}, 3, false},
	}
	for _, tc := range tests {
		if ok, _ := LoopPathOK(tc.path, tc.depth); ok != tc.ok {
			t.Errorf("LoopPathOK(%v, %d) = %v", tc.path, tc.depth, ok)
		}
	}
}

func TestFlowSpecHelpers(t *testing.T) {
	if (&ParallelSpec{}).EffectiveStrategy() != AllSucceed || (&ParallelSpec{Strategy: BestEffort}).EffectiveStrategy() != BestEffort {
		t.Error("EffectiveStrategy")
	}
	if c := (&LoopSpec{MaxIterationsExpr: "  "}).CountExpr(); c != "" {
		t.Errorf("a blank count is no expression: %q", c)
	}
	if c := (&LoopSpec{MaxIterationsExpr: "inputs.n + 1"}).CountExpr(); c != "inputs.n + 1" {
		t.Errorf("CountExpr = %q", c)
	}
	s := &State{Name: "a", Type: StateCommand, Transitions: []Transition{{Goto: "x"}, {When: "true", Goto: "y"}}}
	if ex := s.Expressions(); len(ex) != 1 || ex[0] != (ExprField{Key: "transitions[1].when", Text: "true"}) {
		t.Errorf("Expressions of a command = %+v", ex)
	}
	w := &State{Name: "w", Type: StateWhile, Spec: &WhileSpec{While: " "}}
	if ex := w.Expressions(); len(ex) != 0 {
		t.Errorf("a blank while is no expression: %+v", ex)
	}
}
