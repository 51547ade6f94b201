package report

import (
	"fmt"
	"sort"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// Call is one row of the tool-call table (and one mark on the timeline).
type Call struct {
	// N numbers the calls from 1 in the order they were recorded; rows and marks link by it.
	N    int
	ID   string
	Time time.Time
	// Offset is the call's start since the run's start.
	Offset time.Duration
	// Step is the step the call was made in; Lane the label of its timeline row.
	Step, Lane   string
	Tool, Source string
	// Variant is the effective one (the stronger of the declared variant and the tool's own);
	// Declared and ToolVariant are both kept so a call declared read on a destructive tool shows.
	Variant, Declared, ToolVariant string
	Decision, Outcome              string
	Duration                       time.Duration
	Error, Code, Reason, Warning   string
	Args                           string
	// Sandbox says how a Bash call was confined, "" for other tools.
	Sandbox string
}

// Refused and Failed say how a call stands out.
func (c Call) Refused() bool { return c.Outcome == string(activity.OutcomeRefused) }

// Failed reports a call that ran and returned an error.
func (c Call) Failed() bool { return c.Outcome == string(activity.OutcomeError) }

func calls(recs []activity.Record, tl *timeline, t text) ([]Call, Totals) {
	out := make([]Call, len(recs))
	tot := Totals{Calls: len(recs)}
	for i, r := range recs {
		c := Call{
			N: i + 1, ID: t.line(r.ID, 64), Time: r.Time, Offset: r.Time.Sub(tl.t0),
			Step: t.line(r.Step, CellExcerpt), Tool: t.line(r.Tool, CellExcerpt), Source: t.line(string(r.Source), CellExcerpt),
			Variant: t.line(string(r.Effective()), 40), Declared: t.line(string(r.Intent.Variant), 40), ToolVariant: t.line(string(r.ToolVariant), 40),
			Decision: t.line(r.Intent.Decision, 80), Outcome: t.line(string(r.Outcome), 40),
			Duration: time.Duration(r.DurationMS * float64(time.Millisecond)),
			Error:    t.line(r.Error, CellExcerpt), Code: t.line(r.Code, 80), Reason: t.line(r.Intent.Reason, CellExcerpt),
			Warning: t.line(r.Intent.Warning, CellExcerpt), Args: argsOf(r.Arguments, t), Sandbox: sandboxOf(r, t),
		}
		conn := asConnection(r, &c, t)
		if conn {
			tot.Calls--
			tot.Connections++
		}
		if l := tl.callLane[i]; l >= 0 && l < len(tl.spans) {
			sp := tl.spans[l]
			c.Lane = t.line(sp.name, CellExcerpt)
			if sp.within != "" {
				c.Lane = t.line(sp.within, CellExcerpt) + " › " + c.Lane
			}
		}
		switch {
		case conn:
		case r.Outcome == activity.OutcomeRefused:
			tot.Refused++
		case r.Outcome == activity.OutcomeError:
			tot.Errors++
		case r.Outcome == activity.OutcomeSuccess:
			tot.Succeeded++
		}
		out[i] = c
	}
	return out, tot
}

func argsOf(args map[string]any, t text) string {
	if len(args) == 0 {
		return ""
	}
	return t.value(args, ArgsExcerpt)
}

func sandboxOf(r activity.Record, t text) string {
	s := r.Sandbox
	switch {
	case s == nil:
		return ""
	case !s.Enforced:
		return "not sandboxed: " + t.line(s.Reason, CellExcerpt)
	case !s.Network:
		return fmt.Sprintf("sandboxed (%s policy, no network)", t.line(s.Policy, 40))
	}
	return fmt.Sprintf("sandboxed (%s policy)", t.line(s.Policy, 40))
}

// filtersOf lists the distinct steps, tools, variants and outcomes of the calls.
func filtersOf(cs []Call) Filters {
	var steps, tools, variants, outcomes []string
	for _, c := range cs {
		steps = append(steps, c.Step)
		tools = append(tools, c.Tool)
		variants = append(variants, c.Variant)
		outcomes = append(outcomes, c.Outcome)
	}
	return Filters{Steps: distinct(steps), Tools: distinct(tools), Variants: distinct(variants), Outcomes: distinct(outcomes)}
}

func distinct(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
