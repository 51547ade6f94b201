package workflow

import (
	"errors"
	"fmt"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
)

// The interpolation data: its roots and the fields of the values under them.
var (
	// TemplateRoots are the namespaces of the data; the runner also offers each as a function,
	// so {{inputs.x}} works as the reference's workflows write it.
	TemplateRoots = []string{"inputs", "states", "env", "workflow"}
	stateFields   = []string{"Output", "Stderr", "ExitCode", "Status", "Response", "output", "stderr", "exit_code", "status", "response"}
	// structuredFields are the state fields holding a map, whose keys a template may read on.
	structuredFields = []string{"Response", "response"}
	workflowFields   = []string{"ID", "Name", "id", "name"}
)

const templateDataHint = "templates can use .inputs.NAME, .states.STATE.Output|Stderr|ExitCode|Status|Response, .env.VAR and .workflow.ID|Name"

func (v *validator) template(s *State, key, text string) {
	refs, err := TemplateRefs(text)
	pos := s.ValueAt(key)
	if err != nil {
		var te *TemplateError
		msg := err.Error()
		if errors.As(err, &te) {
			msg = te.Error()
		}
		v.ds.Errorf(pos, fault.UserTemplateSyntax, "check the {{ }} actions: each opens with {{ and closes with }}, e.g. {{.inputs.target}}",
			"%s of state %q is not a valid template: %s", key, s.Name, msg)
		return
	}
	for _, r := range refs {
		where := fmt.Sprintf("%s of state %q", key, s.Name)
		if r.Line > 1 {
			where = fmt.Sprintf("line %d of %s", r.Line, where)
		}
		v.ref(pos, where, r)
	}
}

// shell checks a template that becomes shell code: each {{ }} must sit where a value can be
// escaped as data, and each {{raw …}}, which opts out, is a warning. Syntax errors are the
// template check's to report.
func (v *validator) shell(s *State, key, text string) {
	raws, places, _ := shellsafe.Check(text)
	pos := s.ValueAt(key)
	for _, pe := range places {
		v.ds.Errorf(pos, fault.UserTemplateShellPlace, "move the {{ }} or rewrite the shell text around it; awf escapes each value for the quoting it sits in",
			"line %d, column %d of %s of state %q: %v", pe.Line, pe.Column, key, s.Name, pe.Err)
	}
	for _, r := range raws {
		v.ds.Warnf(pos, fault.UserTemplateRaw, "drop raw to have the value escaped as data, unless the workflow's author alone controls it",
			"line %d, column %d of %s of state %q pastes a value into the shell unescaped ({{raw …}}): a hostile value runs as code", r.Line, r.Column, key, s.Name)
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
			if s := Suggest(p[1], v.inputNames); s != "" {
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
			v.ds.Errorf(pos, fault.UserTemplateUnknownState, DidYouMean(p[1], v.stateNames), "%s refers to unknown state %q (%s)", where, p[1], r)
			return
		}
		if len(p) > 2 && !slices.Contains(stateFields, p[2]) {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, DidYouMean(p[2], stateFields), "%s reads unknown field %q of state %q (%s)", where, p[2], p[1], r)
			return
		}
		if len(p) > 3 && !slices.Contains(structuredFields, p[2]) {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:3]}.String(), "%s reads field %q of %s, which is a plain value (%s)", where, p[3], Ref{Path: p[:3]}, r)
		}
	case "env":
		if len(p) > 2 {
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:2]}.String(), "%s reads field %q of environment variable %q, which is a plain value (%s)", where, p[2], p[1], r)
		}
	case "workflow":
		switch {
		case len(p) > 1 && !slices.Contains(workflowFields, p[1]):
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, DidYouMean(p[1], workflowFields), "%s reads unknown field %q of .workflow (%s)", where, p[1], r)
		case len(p) > 2:
			v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:2]}.String(), "%s reads field %q of %s, which is a plain value (%s)", where, p[2], Ref{Path: p[:2]}, r)
		}
	default:
		hint := templateDataHint
		if s := Suggest(p[0], TemplateRoots); s != "" {
			hint = "did you mean '." + s + "'? " + templateDataHint
		}
		v.ds.Errorf(pos, fault.UserTemplateUnknownReference, hint, "%s uses unknown reference %s", where, r)
	}
}
