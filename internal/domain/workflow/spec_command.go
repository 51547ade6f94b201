package workflow

import "github.com/awf-dev/awf/internal/domain/fault"

// commandStateKeys are the keys of a command state besides the common ones.
var commandStateKeys = []string{"command", "dir", "timeout", "on_success", "on_failure", "transitions", "retry"}

// CommandSpec is what a command state runs: a shell command, in a directory.
type CommandSpec struct {
	Command string
	// Dir is the working directory, relative to the project root; "" means the root.
	Dir string
}

// Kind implements Spec.
func (*CommandSpec) Kind() StateType { return StateCommand }

func (c *CommandSpec) validate(v *validator, s *State) {
	v.required(s, "command", c.Command, fault.UserWorkflowMissingCommand, "add `command: <shell command>`")
	v.shell(s, "command", c.Command)
}

func (c *CommandSpec) templates() []templateField {
	return []templateField{{"command", c.Command}, {"dir", c.Dir}}
}
