package workflow

import (
	"fmt"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// templateCheck reports what CheckTemplate finds in a template that parses: references it
// reaches through a moved dot, a variable or index, and calls or comparisons the runner would
// refuse. Syntax errors are the template check's to report.
func (v *validator) templateCheck(pos fault.Position, where, text string) {
	c, err := CheckTemplate(text, v.kindAt)
	if err != nil {
		return
	}
	for _, r := range c.Refs {
		v.ref(pos, lineOf(where, r.Line), r)
	}
	for _, p := range c.Problems {
		v.ds.Errorf(pos, p.Code, p.Hint, "%s: %s", lineOf(where, p.Line), p.Msg)
	}
}

// lineOf names line n of a template for messages: "line 2 of command of state "build"".
func lineOf(where string, line int) string {
	if line > 1 {
		return fmt.Sprintf("line %d of %s", line, where)
	}
	return where
}

// kindAt is the kind of the value at a data path, as far as it is known before the run.
func (v *validator) kindAt(p []string) string {
	switch p[0] {
	case "inputs":
		if len(p) == 1 {
			return KindMap
		}
		for _, in := range v.w.Inputs {
			if in.Name == p[1] && len(p) == 2 {
				return inputKind(in.Type)
			}
		}
	case "states":
		switch {
		case len(p) < 3:
			return KindMap
		case len(p) == 3 && slices.Contains(intStateFields, p[2]):
			return KindInt
		case len(p) == 3 && slices.Contains(textStateFields, p[2]):
			return KindString
		}
	case "env":
		if len(p) <= 2 {
			return []string{KindMap, KindString}[len(p)-1]
		}
	case "workflow":
		if len(p) == 1 {
			return KindMap
		}
		if len(p) == 2 && slices.Contains(textWorkflowFields, p[1]) {
			return KindString
		}
	}
	return ""
}

// The fields whose kind is known; a field added later stays of unknown kind until listed here,
// so a comparison with it is never refused by mistake.
var (
	intStateFields     = []string{"ExitCode", "exit_code"}
	textStateFields    = []string{"Output", "Stderr", "Status", "output", "stderr", "status"}
	textWorkflowFields = []string{"ID", "Name", "id", "name"}
)
