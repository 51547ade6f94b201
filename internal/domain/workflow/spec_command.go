package workflow

import (
	"fmt"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// commandStateKeys are the keys of a command state besides the common ones.
var commandStateKeys = []string{"command", "script_file", "shell", "dir", "env", "timeout", "continue_on_error", "capture", "hooks", "on_success", "on_failure", "transitions", "retry"}

// CommandSpec is what a command state runs: a shell command, or a script file, in a directory.
type CommandSpec struct {
	Command string
	// ScriptFile is a path (a template) to a script whose content is run instead of Command:
	// relative to the workflow file's directory first, then to the project root. Its content is
	// a template too, rendered with the same escaping as Command; a `#!` line picks the
	// interpreter.
	ScriptFile string
	// Shell runs Command, and a script_file without a #! line: the step's `shell:`, else the
	// workflow's (ApplyShell), else "" for /bin/sh.
	Shell string
	// Dir is the working directory, relative to the project root; "" means the root.
	Dir string
	// ContinueOnError makes a failed command follow on_success; its state still records the
	// failure (Status, ExitCode), as in the reference awf.
	ContinueOnError bool
	// Env are variables set for this command only (`env:`), in the order written. Each value
	// is a template whose result reaches the command as the variable's value, never as code.
	Env []EnvVar
	// Capture is the reference's `capture:` block, checked and kept; it has no effect (the
	// reference parses it and ignores it too), since .states.NAME.Output/Stderr already hold it.
	Capture *Capture
}

// EnvVar is one variable of a step's `env:`: its name and its value, a template.
type EnvVar struct{ Name, Value string }

// Capture is the `capture:` block of a command state.
type Capture struct {
	Stdout, Stderr, MaxSize, Encoding string
}

// CaptureKeys are the keys of a `capture:` block.
var CaptureKeys = []string{"stdout", "stderr", "max_size", "encoding"}

// Kind implements Spec.
func (*CommandSpec) Kind() StateType { return StateCommand }

func (c *CommandSpec) validate(v *validator, s *State) {
	hasCmd, hasFile := written(s, "command") || c.Command != "", written(s, "script_file") || c.ScriptFile != ""
	switch {
	case hasCmd && hasFile:
		v.ds.Errorf(laterKey(s, "command", "script_file"), fault.UserWorkflowScriptConflict, "keep `command:` for inline shell or `script_file:` for a file, not both",
			"state %q sets both command and script_file", s.Name)
	case hasFile:
		v.required(s, "script_file", c.ScriptFile, fault.UserWorkflowMissingCommand, "give the path of the script, or use `command:` instead")
	default:
		v.required(s, "command", c.Command, fault.UserWorkflowMissingCommand, "add `command: <shell command>` or `script_file: <path>`")
	}
	v.shell(s, "command", c.Command)
	v.stepEnv(s, c.Env)
	if written(s, "shell") {
		v.shellProgram(s.ValueAt("shell"), fmt.Sprintf("shell of state %q", s.Name), c.Shell)
	}
	if c.Capture != nil {
		v.ds.Warnf(s.KeyAt("capture"), fault.UserWorkflowCaptureIgnored, "read the output as {{.states."+s.Name+".Output}} and {{.states."+s.Name+".Stderr}}, and remove `capture:`",
			"capture of state %q has no effect (the reference awf ignores it too)", s.Name)
	}
}

func (c *CommandSpec) templates() []templateField {
	out := []templateField{{"command", c.Command}, {"script_file", c.ScriptFile}, {"dir", c.Dir}}
	for _, e := range c.Env {
		out = append(out, templateField{"env." + e.Name, e.Value})
	}
	return out
}

// laterKey is the position of whichever of keys a and b comes second in the file.
func laterKey(s *State, a, b string) fault.Position {
	pos := s.KeyAt(b)
	if p := s.KeyAt(a); p.Line > pos.Line || p.Line == pos.Line && p.Column > pos.Column {
		pos = p
	}
	return pos
}

// ContinuesOnError reports whether a failure of the state follows on_success.
func (s *State) ContinuesOnError() bool {
	c := s.Command()
	return c != nil && c.ContinueOnError
}
