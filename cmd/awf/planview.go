package main

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/application/run"
)

// Plan shows a dry run's plan: text, one block per state, or JSON.
func (v *runView) Plan(workflow string, plan []run.PlanStep) {
	if v.format == "json" {
		// placeholders such as <states.x.output> stay readable: no HTML escaping
		_ = writeJSONDoc(v.out, map[string]any{"workflow": workflow, "dry_run": true, "states": plan}, false)
		return
	}
	fmt.Fprintf(v.out, "Dry run of workflow '%s': nothing is executed.\n", workflow)
	for i, ps := range plan {
		fmt.Fprintf(v.out, "%d. %s (%s)\n", i+1, ps.State, ps.Kind)
		for _, l := range ps.Lines {
			fmt.Fprintf(v.out, "     %s\n", strings.ReplaceAll(l, "\n", "\n     "))
		}
		var exits []string
		if ps.OnSuccess != "" {
			exits = append(exits, "on_success → "+ps.OnSuccess)
		}
		if ps.OnFailure != "" {
			exits = append(exits, "on_failure → "+ps.OnFailure)
		}
		for _, t := range ps.Transitions {
			exits = append(exits, "→ "+t)
		}
		if len(exits) > 0 {
			fmt.Fprintf(v.out, "     %s\n", strings.Join(exits, "; "))
		}
	}
}
