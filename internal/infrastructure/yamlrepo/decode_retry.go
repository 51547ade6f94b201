package yamlrepo

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/retry"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// retryKeys are the keys of a `retry:` block, with the reference awf's names.
var retryKeys = []string{"max_attempts", "initial_delay", "max_delay", "backoff", "multiplier", "jitter", "retryable_exit_codes"}

// retry decodes a `retry:` block; values out of range are the policy's to report.
func (l *loader) retry(n *yaml.Node, pm posMaps) *retry.Policy {
	p := &retry.Policy{}
	b := block{"retry", "`retry: {max_attempts: 3, initial_delay: 1s, backoff: exponential}`", retryKeys, fault.UserWorkflowUnknownKey, "in retry"}
	l.fields(n, b, pm, "retry.", func(e entry) {
		switch e.Key {
		case "max_attempts":
			p.MaxAttempts = int(l.number(e.V, "max_attempts", true))
		case "initial_delay":
			p.InitialDelay = l.duration(e.V, "initial_delay")
		case "max_delay":
			p.MaxDelay = l.duration(e.V, "max_delay")
		case "backoff":
			p.Backoff = retry.Backoff(l.str(e.V, "backoff"))
		case "multiplier":
			p.Multiplier = l.number(e.V, "multiplier", false)
		case "jitter":
			p.Jitter = l.number(e.V, "jitter", false)
		case "retryable_exit_codes":
			items, _ := l.sequence(e.V, "retryable_exit_codes", "`retryable_exit_codes: [1, 22]`")
			for _, it := range items {
				p.RetryableExitCodes = append(p.RetryableExitCodes, int(l.number(it, "an exit code", true)))
			}
		}
	})
	return p
}

// number reads a YAML number (a whole one when whole is set); anything else is reported and
// yields 0, which the policy then reports no further.
func (l *loader) number(n *yaml.Node, what string, whole bool) float64 {
	r := l.Resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && (r.Tag == "!!int" || (!whole && r.Tag == "!!float")) {
		if f, err := strconv.ParseFloat(r.Value, 64); err == nil && (!whole || f == float64(int64(f))) {
			return f
		}
	}
	kind := "a number"
	if whole {
		kind = "a whole number"
	}
	got := "nothing"
	if r != nil {
		got = strictyaml.KindName(r)
	}
	l.Invalid(n, "write "+kind+" without quotes", "%s must be %s, got %s", what, kind, got)
	return 0
}
