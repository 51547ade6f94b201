package yamlrepo

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// workflowHooks decodes the top-level `hooks:` block.
func (l *loader) workflowHooks(n *yaml.Node, pm posMaps) workflow.WorkflowHooks {
	var h workflow.WorkflowHooks
	b := block{"hooks", "`hooks: {workflow_start: [{log: starting}]}`", workflow.WorkflowHookKeys, fault.UserWorkflowUnknownKey, "in workflow hooks"}
	l.fields(n, b, pm, "hooks.", func(e entry) {
		list := l.hookList(e.V, "hooks."+e.Key)
		switch e.Key {
		case workflow.HookWorkflowStart:
			h.Start = list
		case workflow.HookWorkflowEnd:
			h.End = list
		case workflow.HookWorkflowError:
			h.Error = list
		case workflow.HookWorkflowCancel:
			h.Cancel = list
		}
	})
	return h
}

// stepHooks decodes a state's `hooks:` block.
func (l *loader) stepHooks(n *yaml.Node, spm posMaps) workflow.StepHooks {
	var h workflow.StepHooks
	b := block{"hooks", "`hooks: {pre: [{log: starting}], post: [{command: make clean}]}`", workflow.StepHookKeys, fault.UserWorkflowUnknownKey, "in step hooks"}
	l.fields(n, b, spm, "hooks.", func(e entry) {
		list := l.hookList(e.V, "hooks."+e.Key)
		if e.Key == workflow.HookPre {
			h.Pre = list
		} else {
			h.Post = list
		}
	})
	return h
}

// hookList decodes a list of `{log: …}` / `{command: …}` entries.
func (l *loader) hookList(n *yaml.Node, what string) workflow.Hook {
	items, _ := l.sequence(n, what, "`- log: \"deploying {{.inputs.env}}\"` or `- command: make clean`")
	out := make(workflow.Hook, 0, len(items))
	scratch := newPosMaps()
	for i, item := range items {
		a := workflow.HookAction{Pos: l.Pos(item)}
		b := block{fmt.Sprintf("%s[%d]", what, i), "`- log: starting`", workflow.HookActionKeys, fault.UserWorkflowUnknownKey, "in a hook entry"}
		l.fields(item, b, scratch, "", func(e entry) {
			a.Keys++
			switch e.Key {
			case "log":
				a.Log, a.LogPos = l.str(e.V, "log"), l.Pos(e.V)
			case "command":
				a.Command, a.CommandPos = l.str(e.V, "command"), l.Pos(e.V)
			}
		})
		if r := l.Resolve(item); a.Keys == 0 && r != nil && len(r.Content) > 0 {
			l.hush(item) // its unknown key is reported; "needs log or command" would only repeat it
		}
		out = append(out, a)
	}
	return out
}

// capture decodes a command state's `capture:` block.
func (l *loader) capture(n *yaml.Node, spm posMaps) *workflow.Capture {
	c := &workflow.Capture{}
	b := block{"capture", "`capture: {stdout: result}`", workflow.CaptureKeys, fault.UserWorkflowUnknownKey, "in capture"}
	l.fields(n, b, spm, "capture.", func(e entry) {
		switch e.Key {
		case "stdout":
			c.Stdout = l.str(e.V, "capture.stdout")
		case "stderr":
			c.Stderr = l.str(e.V, "capture.stderr")
		case "max_size":
			c.MaxSize = l.str(e.V, "capture.max_size")
		case "encoding":
			c.Encoding = l.str(e.V, "capture.encoding")
		}
	})
	return c
}

// conversation decodes an agent state's `conversation:` block; `{}` is a valid block.
func (l *loader) conversation(n *yaml.Node, spm posMaps) *workflow.Conversation {
	c := &workflow.Conversation{}
	if strictyaml.IsNull(l.Resolve(n)) {
		return c
	}
	b := block{"conversation", "`conversation: {continue_from: seed}`", workflow.ConversationKeys, fault.UserWorkflowUnknownKey, "in conversation"}
	l.fields(n, b, spm, "conversation.", func(e entry) {
		c.ContinueFrom = l.str(e.V, "conversation.continue_from")
	})
	return c
}

// inlineFailureKeys are the keys of the inline `on_failure: {message, status}` shorthand.
var inlineFailureKeys = []string{"message", "status"}

// InlineFailurePrefix starts the name of the hidden terminal state an inline on_failure makes,
// as the reference awf names it.
const InlineFailurePrefix = "__inline_error_"

// onFailure decodes `on_failure:`: a state name, or the inline `{message, status}` shorthand,
// which makes a hidden failure terminal and returns its name. status is the reference's exit
// code (an integer, default 1) or the word failure; awf ends the run as a failure either way.
func (l *loader) onFailure(s *workflow.State, n *yaml.Node, spm posMaps) (string, *workflow.State) {
	r := l.Resolve(n)
	if r == nil || r.Kind != yaml.MappingNode {
		return l.str(n, "on_failure"), nil
	}
	name := InlineFailurePrefix + s.Name
	tpm := newPosMaps()
	t := &workflow.TerminalSpec{Status: workflow.StatusFailure}
	hidden := &workflow.State{Name: name, Type: workflow.StateTerminal, Spec: t, Pos: l.Pos(n), KeyPos: tpm.keys, ValuePos: tpm.values}
	b := block{"on_failure", "`on_failure: {message: \"build failed\", status: 1}`", inlineFailureKeys, fault.UserWorkflowUnknownKey, "in an inline on_failure"}
	l.fields(n, b, tpm, "", func(e entry) {
		if e.Key == "message" {
			t.Message = l.str(e.V, "on_failure.message")
			return
		}
		if v := l.Resolve(e.V); v != nil && v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Value == string(workflow.StatusFailure)) {
			return
		}
		l.Invalid(e.V, "write an exit code such as 1, or leave status out", "on_failure.status must be an exit code or failure")
	})
	copyInto(spm, tpm, "on_failure.")
	return name, hidden
}
