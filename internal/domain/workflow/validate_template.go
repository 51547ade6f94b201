package workflow

import (
	"errors"
	"fmt"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// The interpolation data: its roots and the fields of the values under them.
var (
	// TemplateRoots are the namespaces of the data; the runner also offers each as a function,
	// so {{inputs.x}} works as the reference's workflows write it.
	TemplateRoots = []string{"inputs", "states", "env", "workflow", "awf", "context", "error", "loop"}
	stateFields   = []string{"Output", "Stderr", "ExitCode", "Status", "JSON", "Response", "Exhausted", "Iterations", "output", "stderr", "exit_code", "status", "json", "response", "exhausted", "iterations"}
	// structuredFields are the state fields holding a map, whose keys a template may read on.
	structuredFields = []string{"Response", "response"}
	workflowFields   = []string{"ID", "Name", "Duration", "CurrentState", "id", "name", "duration", "current_state"}
)

const templateDataHint = "templates can use .inputs.NAME, .states.STATE.Output|Stderr|ExitCode|Status|JSON|Response|Exhausted|Iterations, .env.VAR, .workflow.ID|Name|Duration|CurrentState, .awf.*_dir, .context.working_dir|user|hostname and, in workflow_error hooks, .error.message|state|exit_code|type"

func (v *validator) template(s *State, key, text string) {
	v.templateAt(s.ValueAt(key), fmt.Sprintf("%s of state %q", key, s.Name), text)
}

// templateAt checks a template written at pos; where names it in messages.
func (v *validator) templateAt(pos fault.Position, where, text string) {
	refs, err := TemplateRefs(text)
	if err != nil {
		var te *TemplateError
		msg := err.Error()
		if errors.As(err, &te) {
			msg = te.Error()
		}
		v.ds.Errorf(pos, fault.UserTemplateSyntax, "check the {{ }} actions: each opens with {{ and closes with }}, e.g. {{.inputs.target}}",
			"%s is not a valid template: %s", where, msg)
		return
	}
	for _, r := range refs {
		v.ref(pos, lineOf(where, r.Line), r)
	}
	v.templateCheck(pos, where, text)
}

// shell checks a template that becomes shell code: each {{ }} must sit where a reference to a
// variable reads as data (not where a shell or interpreter parses the text again: arithmetic,
// eval, sh -c '…', …), and each {{raw …}}, which opts out, is a warning. Syntax errors are the
// template check's to report.
func (v *validator) shell(s *State, key, text string) {
	v.shellAt(s.ValueAt(key), fmt.Sprintf("%s of state %q", key, s.Name), text)
}

// shellAt checks shell template text written at pos; where names it in messages.
func (v *validator) shellAt(pos fault.Position, where, text string) {
	raws, places, _ := shellsafe.Check(text)
	for _, pe := range places {
		v.ds.Errorf(pos, fault.UserTemplateShellPlace, "move the {{ }} or rewrite the shell text around it; each value reaches the shell as a variable beside the code, quoted for its place",
			"line %d, column %d of %s: %v", pe.Line, pe.Column, where, pe.Err)
	}
	for _, r := range raws {
		v.ds.Warnf(pos, fault.UserTemplateRaw, "drop raw to have the value passed as data, unless the workflow's author alone controls it",
			"line %d, column %d of %s pastes a value into the shell unescaped ({{raw …}}): a hostile value runs as code", r.Line, r.Column, where)
	}
}

// ref checks one reference against the data the runner provides.
func (v *validator) ref(pos fault.Position, where string, r Ref) {
	p := r.Path
	switch p[0] {
	case "inputs":
		if len(p) < 2 {
			return
		}
		if !slices.Contains(v.inputNames, p[1]) {
			hint := "declare it under `inputs:` with `- name: " + p[1] + "`"
			if s := suggest.Closest(p[1], v.inputNames); s != "" {
				hint = "did you mean '" + s + "'?"
			}
			v.ds.Errorf(pos, fault.UserTemplateUnknownInput, hint, "%s refers to undeclared input %q (%s)", where, p[1], r)
			return
		}
		if len(p) > 2 {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:2]}.String(), "%s reads field %q of input %q, which is a plain value (%s)", where, p[2], p[1], r)
		}
	case "states":
		if len(p) < 2 {
			return
		}
		if v.w.States[p[1]] == nil {
			v.ds.Errorf(pos, fault.UserTemplateUnknownState, suggest.DidYouMean(p[1], v.stateNames), "%s refers to unknown state %q (%s)", where, p[1], r)
			return
		}
		if len(p) > 2 && !slices.Contains(stateFields, p[2]) {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, suggest.DidYouMean(p[2], stateFields), "%s reads unknown field %q of state %q (%s)", where, p[2], p[1], r)
			return
		}
		if len(p) > 3 && !slices.Contains(structuredFields, p[2]) {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:3]}.String(), "%s reads field %q of %s, which is a plain value (%s)", where, p[3], Ref{Path: p[:3]}, r)
		}
	case "env":
		if len(p) > 2 {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:2]}.String(), "%s reads field %q of environment variable %q, which is a plain value (%s)", where, p[2], p[1], r)
		}
	case "workflow", "awf", "context", "error":
		v.namespaceRef(pos, where, r)
	case "loop":
		v.loopRef(pos, where, r)
	default:
		hint := templateDataHint
		if s := suggest.Closest(p[0], TemplateRoots); s != "" {
			hint = "did you mean '." + s + "'? " + templateDataHint
		}
		v.ds.Errorf(pos, fault.UserTemplateUnknownReference, hint, "%s uses unknown reference %s", where, r)
	}
}
