package workflow

import (
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// The fields of the namespaces whose shape is fixed, in both casings the reference awf's
// workflows use (its documents write .workflow.id, its engine reads .workflow.ID).
var (
	// AWFDirKeys are the directories under .awf: the reference's XDG-based paths.
	AWFDirKeys    = []string{"config_dir", "data_dir", "cache_dir", "prompts_dir", "scripts_dir", "skills_dir", "workflows_dir", "plugins_dir", "roles_dir"}
	contextFields = []string{"WorkingDir", "User", "Hostname", "working_dir", "user", "hostname"}
	errorFields   = []string{"Message", "State", "ExitCode", "Type", "message", "state", "exit_code", "type"}
)

// namespaceFields are the fields of each fixed namespace.
var namespaceFields = map[string][]string{
	"workflow": workflowFields,
	"awf":      AWFDirKeys,
	"context":  contextFields,
	"error":    errorFields,
}

// namespaceRef checks a reference into a namespace whose fields are fixed: the field must
// exist, nothing may be read below it, and .error only where a run can have failed.
func (v *validator) namespaceRef(pos fault.Position, where string, r Ref) {
	p := r.Path
	if p[0] == "error" && !v.errorOK {
		v.ds.Errorf(pos, fault.UserTemplateErrorScope, "read .error in a workflow_error hook, in a state reached only through on_failure, or in a terminal's message",
			"%s reads %s, which is only set in workflow_error hooks and after a failure", where, r)
		return
	}
	fields := namespaceFields[p[0]]
	switch {
	case len(p) > 1 && !slices.Contains(fields, p[1]):
		v.ds.Errorf(pos, fault.UserTemplateUnknownField, suggest.DidYouMean(p[1], fields), "%s reads unknown field %q of .%s (%s)", where, p[1], p[0], r)
	case len(p) > 2:
		v.ds.Errorf(pos, fault.UserTemplateUnknownField, "use "+Ref{Path: p[:2]}.String(), "%s reads field %q of %s, which is a plain value (%s)", where, p[2], Ref{Path: p[:2]}, r)
	}
}

// onlyAfterFailure reports whether every way into the state is an on_failure: then .error is
// always the failure that led there. The initial state, a transition's or on_success's target
// may be reached without one.
func (v *validator) onlyAfterFailure(name string) bool {
	if name == v.w.Initial {
		return false
	}
	seen := false
	for _, n := range v.stateNames {
		s := v.w.States[n]
		if s.OnSuccess == name {
			return false
		}
		for _, tr := range s.Transitions {
			if tr.Goto == name {
				return false
			}
		}
		seen = seen || s.OnFailure == name
	}
	return seen
}
