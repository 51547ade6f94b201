package workflow

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// Loop limits. MaxIterationsCap bounds every loop, written or computed, so a runaway count
// ends with an error instead of running for hours; DefaultWhileIterations bounds a while loop
// that sets no max_iterations, as the reference awf does.
const (
	MaxIterationsCap       = 10000
	DefaultWhileIterations = 100
)

// loopKeys are the keys both loop kinds accept besides their own.
var loopKeys = []string{"body", "max_iterations", "break_when", "on_complete", "on_exhausted", "on_success", "on_failure", "transitions", "timeout"}

// LoopSpec is what for_each and while share: the body run each iteration and how the loop ends.
type LoopSpec struct {
	// Body names the states run in order each iteration. A body state runs only through its loop.
	Body []string
	// MaxIterations is a written count (0 when not written); MaxIterationsExpr a count computed
	// at run time: a template, an expression, or both ("{{.inputs.pages}} * 2").
	MaxIterations     int
	MaxIterationsExpr string
	// BreakWhen is checked after each iteration; when it holds the loop ends normally.
	BreakWhen string
	// OnComplete is where the run goes when the loop ends normally; "" falls back to on_success.
	OnComplete string
	// OnExhausted is where the run goes when the loop stopped at max_iterations while its
	// while still held or its break_when never did, so "the attempts ran out" can be routed
	// apart from "the condition was met"; "" goes where on_complete goes.
	OnExhausted string
}

// templateAction matches one {{ … }} action, for checking the arithmetic around it.
var templateAction = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{.*?\}\}`) })

// CountExpr is the dynamic max_iterations as an expression to compile at validate time: each
// template action stands for a number, so "{{.inputs.pages}} * 2" is checked as "1 * 2". It is
// "" for a written count.
func (l *LoopSpec) CountExpr() string {
	if strings.TrimSpace(l.MaxIterationsExpr) == "" {
		return ""
	}
	return templateAction().ReplaceAllString(l.MaxIterationsExpr, "1")
}

// validateLoop checks the keys both loop kinds share.
func (l *LoopSpec) validateLoop(v *validator, s *State) {
	v.members(s, "body", l.Body)
	if l.MaxIterationsExpr == "" && written(s, "max_iterations") && (l.MaxIterations < 1 || l.MaxIterations > MaxIterationsCap) {
		v.ds.Errorf(s.ValueAt("max_iterations"), fault.UserWorkflowMaxIterations,
			fmt.Sprintf("write a whole number from 1 to %d", MaxIterationsCap),
			"max_iterations of state %q is %d; it must be from 1 to %d", s.Name, l.MaxIterations, MaxIterationsCap)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(l.MaxIterationsExpr)); err == nil && (n < 1 || n > MaxIterationsCap) {
		v.ds.Errorf(s.ValueAt("max_iterations"), fault.UserWorkflowMaxIterations,
			fmt.Sprintf("write a whole number from 1 to %d", MaxIterationsCap),
			"max_iterations of state %q is %d; it must be from 1 to %d", s.Name, n, MaxIterationsCap)
	}
	for _, t := range []keyedTarget{{"on_complete", l.OnComplete}, {"on_exhausted", l.OnExhausted}} {
		if t.target != "" && v.w.States[t.target] == nil {
			v.ds.Errorf(s.ValueAt(t.key), fault.UserWorkflowUnknownTarget, suggest.DidYouMean(t.target, v.stateNames),
				"%s of state %q names unknown state %q", t.key, s.Name, t.target)
		}
	}
}

func (l *LoopSpec) loopTemplates() []templateField {
	if strings.Contains(l.MaxIterationsExpr, "{{") {
		return []templateField{{"max_iterations", l.MaxIterationsExpr}}
	}
	return nil
}

// members checks the states a loop body or a parallel state lists: each must exist, be listed
// once, not be the state itself, and not end the run.
func (v *validator) members(s *State, key string, names []string) {
	if len(names) == 0 {
		v.ds.Errorf(s.KeyAt(key), fault.UserWorkflowEmptyBody, fmt.Sprintf("list the states to run, e.g. `%s: [build, test]`", key),
			"%s state %q has no %s: it would run nothing", s.Type, s.Name, key)
		return
	}
	for i, n := range names {
		pos := s.ValueAt(fmt.Sprintf("%s[%d]", key, i))
		switch {
		case v.w.States[n] == nil:
			v.ds.Errorf(pos, fault.UserWorkflowUnknownTarget, suggest.DidYouMean(n, v.stateNames),
				"%s[%d] of state %q names unknown state %q", key, i, s.Name, n)
		case n == s.Name:
			v.ds.Errorf(pos, fault.UserWorkflowInvalidMember, "list the states to run, not the state itself",
				"state %q lists itself in its %s", s.Name, key)
		case slices.Index(names, n) < i:
			v.ds.Errorf(pos, fault.UserWorkflowInvalidMember, "remove the second mention",
				"state %q lists %q twice in its %s", s.Name, n, key)
		case v.w.States[n].Ends():
			v.ds.Errorf(pos, fault.UserWorkflowInvalidMember, "list command, agent or other runnable states; a terminal state ends the whole run",
				"%s of state %q lists terminal state %q", key, s.Name, n)
		}
	}
}
