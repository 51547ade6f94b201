package workflow

import (
	"strconv"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// HookAction is one entry of a hook list: a log line or a shell command, both templates. A
// workflow sets exactly one of them per entry.
type HookAction struct {
	Log     string
	Command string
	// Shell runs Command: the step's or the workflow's `shell:` (ApplyShell), "" for /bin/sh.
	Shell string
	// Pos is where the entry is; LogPos and CommandPos where the value of each key starts.
	Pos        fault.Position
	LogPos     fault.Position
	CommandPos fault.Position
	// Keys counts the keys written in the entry (log and command), so an entry naming both, or
	// neither, is reported even when a value is empty.
	Keys int
}

// Hook is an ordered list of actions, run one after the other.
type Hook []HookAction

// StepHooks are a state's `hooks:`: Pre runs before the state's work, Post after it, whatever
// its outcome. A failing action is logged and shown; it does not change the step's outcome.
type StepHooks struct {
	Pre  Hook
	Post Hook
}

// WorkflowHooks are the workflow's top-level `hooks:`. Start runs before the initial state and
// a failure there stops the run; End runs after a successful run, Error after a failed one
// (with .error set), Cancel after an interrupted one.
type WorkflowHooks struct {
	Start  Hook
	End    Hook
	Error  Hook
	Cancel Hook
}

// Hook names as written in YAML.
const (
	HookWorkflowStart  = "workflow_start"
	HookWorkflowEnd    = "workflow_end"
	HookWorkflowError  = "workflow_error"
	HookWorkflowCancel = "workflow_cancel"
	HookPre            = "pre"
	HookPost           = "post"
)

// WorkflowHookKeys and StepHookKeys are the keys of the two `hooks:` blocks; HookActionKeys
// those of one entry.
var (
	WorkflowHookKeys = []string{HookWorkflowStart, HookWorkflowEnd, HookWorkflowError, HookWorkflowCancel}
	StepHookKeys     = []string{HookPre, HookPost}
	HookActionKeys   = []string{"log", "command"}
)

// Named returns the hook lists with their YAML names, in running order.
func (h WorkflowHooks) Named() []NamedHook {
	return []NamedHook{{HookWorkflowStart, h.Start}, {HookWorkflowEnd, h.End}, {HookWorkflowError, h.Error}, {HookWorkflowCancel, h.Cancel}}
}

// Named returns the hook lists with their YAML names, in running order.
func (h StepHooks) Named() []NamedHook {
	return []NamedHook{{HookPre, h.Pre}, {HookPost, h.Post}}
}

// NamedHook is a hook list with the key it was written under.
type NamedHook struct {
	Name string
	Hook Hook
}

// Empty reports whether no hook list has an action.
func (h StepHooks) Empty() bool { return len(h.Pre) == 0 && len(h.Post) == 0 }

// hooks checks each action of each list: exactly one of log and command, a template
// that parses and refers to data that exists, and shell-safe command text. errorOK says
// whether .error may be read (workflow_error only).
func (v *validator) hooks(owner string, lists []NamedHook) {
	for _, nh := range lists {
		for i, a := range nh.Hook {
			where := owner + " hook " + nh.Name + "[" + strconv.Itoa(i) + "]"
			if (a.Log == "") == (a.Command == "") || a.Keys > 1 {
				v.ds.Errorf(a.Pos, fault.UserWorkflowInvalidHook, "write `- log: <message>` or `- command: <shell command>`, one per entry",
					"%s must have exactly one of log and command", where)
				continue
			}
			prev := v.errorOK
			v.errorOK = prev || nh.Name == HookWorkflowError
			if a.Log != "" {
				v.templateAt(a.LogPos, where+" log", a.Log)
			} else {
				v.templateAt(a.CommandPos, where+" command", a.Command)
				v.shellAt(a.CommandPos, where+" command", a.Command)
			}
			v.errorOK = prev
		}
	}
}
