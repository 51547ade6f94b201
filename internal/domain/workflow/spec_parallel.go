package workflow

import (
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// Strategy is how a parallel state judges its branches.
type Strategy string

// Parallel strategies, with the reference awf's names and meanings.
const (
	// AllSucceed fails on the first failed branch and cancels the others.
	AllSucceed Strategy = "all_succeed"
	// AnySucceed succeeds on the first successful branch and cancels the others.
	AnySucceed Strategy = "any_succeed"
	// BestEffort runs every branch to its end and succeeds whatever they did.
	BestEffort Strategy = "best_effort"
)

var strategyNames = []string{string(AllSucceed), string(AnySucceed), string(BestEffort)}

// parallelStateKeys are the keys of a parallel state besides the common ones.
var parallelStateKeys = []string{"parallel", "strategy", "max_concurrent", "on_success", "on_failure", "transitions", "timeout"}

// ParallelSpec runs its branches, each a state of the workflow, at the same time.
type ParallelSpec struct {
	Branches []string
	// Strategy is "" for the default, all_succeed.
	Strategy Strategy
	// MaxConcurrent bounds the branches running at once; 0 means no bound.
	MaxConcurrent int
}

// Kind implements Spec.
func (*ParallelSpec) Kind() StateType { return StateParallel }

// EffectiveStrategy is the strategy with the default applied.
func (p *ParallelSpec) EffectiveStrategy() Strategy {
	if p.Strategy == "" {
		return AllSucceed
	}
	return p.Strategy
}

func (p *ParallelSpec) validate(v *validator, s *State) {
	v.members(s, "parallel", p.Branches)
	if p.Strategy != "" && !slices.Contains(strategyNames, string(p.Strategy)) {
		v.ds.Errorf(s.ValueAt("strategy"), fault.UserWorkflowInvalidStrategy, suggest.DidYouMean(string(p.Strategy), strategyNames),
			"parallel state %q has unknown strategy %q; use all_succeed, any_succeed or best_effort", s.Name, p.Strategy)
	}
	if written(s, "max_concurrent") && p.MaxConcurrent < 1 {
		v.ds.Errorf(s.ValueAt("max_concurrent"), fault.UserWorkflowInvalidConcurrency, "write a whole number of at least 1, or remove it for no bound",
			"max_concurrent of state %q is %d; it must be at least 1", s.Name, p.MaxConcurrent)
	}
}

func (*ParallelSpec) templates() []templateField { return nil }
