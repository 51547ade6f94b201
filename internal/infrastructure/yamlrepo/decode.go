package yamlrepo

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// The schema of a workflow file (docs/design.md#workflow-schema). State keys live in the domain, which also decides
// which state types accept them.
var (
	topKeys   = []string{"name", "description", "version", "author", "tags", "env", "shell", "timeout", "inputs", "outputs", "hooks", "states"}
	inputKeys = []string{"name", "type", "required", "default", "description", "validation"}
)

// posMaps records key and value positions by dotted path.
type posMaps struct {
	keys, values map[string]fault.Position
}

func newPosMaps() posMaps {
	return posMaps{keys: map[string]fault.Position{}, values: map[string]fault.Position{}}
}

func (l *loader) record(m posMaps, path string, k, v *yaml.Node) {
	m.keys[path] = l.Pos(k)
	if v != nil {
		m.values[path] = l.Pos(v)
	}
}

// copyInto adds the positions of src to dst under prefix ("states.build.").
func copyInto(dst, src posMaps, prefix string) {
	for p, v := range src.keys {
		dst.keys[prefix+p] = v
	}
	for p, v := range src.values {
		dst.values[prefix+p] = v
	}
}

// workflow decodes the root mapping of the file.
func (l *loader) workflow(root *yaml.Node) *workflow.Workflow {
	pm := newPosMaps()
	w := &workflow.Workflow{File: l.File, States: map[string]*workflow.State{}, Pos: pm.keys, ValuePos: pm.values}
	top := block{"the workflow", "`name: review` followed by `states:`", topKeys, fault.UserWorkflowUnknownKey, "at the top level"}
	l.fields(root, top, pm, "", func(e entry) {
		switch e.Key {
		case "name":
			w.Name = l.str(e.V, "name")
		case "description":
			w.Description = l.str(e.V, "description")
		case "version":
			w.Version = l.str(e.V, "version")
		case "author":
			w.Author = l.str(e.V, "author")
		case "shell":
			w.Shell = l.str(e.V, "shell")
		case "timeout":
			w.Timeout = l.timeout(e.V)
		case "tags":
			w.Tags, _, _ = l.strList(e.V, "tags", "`tags: [review, go]`")
		case "env":
			var pos []fault.Position
			w.Env, pos, _ = l.strList(e.V, "env", "`env: [GITHUB_TOKEN]`")
			for i, p := range pos {
				pm.values[fmt.Sprintf("env[%d]", i)] = p
			}
		case "inputs":
			l.inputs(w, pm, e.V)
		case "hooks":
			w.Hooks = l.workflowHooks(e.V, pm)
		case "outputs":
			l.outputs(w, pm, e.V)
		case "states":
			l.states(w, pm, e)
		}
	})
	w.ApplyShell()
	return w
}

func (l *loader) inputs(w *workflow.Workflow, pm posMaps, n *yaml.Node) {
	items, _ := l.sequence(n, "inputs", "`- name: target` with `type: string` below it")
	for i, item := range items {
		path := fmt.Sprintf("inputs[%d]", i)
		l.record(pm, path, item, item)
		in := workflow.Input{Type: workflow.InputString, Pos: l.Pos(item)}
		var def, rules *yaml.Node
		b := block{fmt.Sprintf("input #%d", i+1), "`- name: target`", inputKeys, fault.UserWorkflowUnknownKey, "in an input"}
		l.fields(item, b, pm, path+".", func(e entry) {
			switch e.Key {
			case "name":
				in.Name = l.str(e.V, "the input name")
			case "type":
				in.Type = workflow.InputType(l.str(e.V, "the input type"))
			case "required":
				in.Required = l.boolean(e.V, "required", false)
			case "default":
				def = e.V
			case "description":
				in.Description = l.str(e.V, "the input description")
			case "validation":
				rules = e.V
			}
		})
		if def != nil {
			in.Default = l.inputDefault(in.Type, def, path+".default")
		}
		if rules != nil {
			in.Validation = l.inputRules(in.Type, rules, pm, path+".validation")
		}
		w.Inputs = append(w.Inputs, in)
	}
}

// inputDefault decodes a default. For string inputs any scalar is taken as written (so
// `default: 8080` works); otherwise the YAML type is kept and validation compares it with the
// declared type.
func (l *loader) inputDefault(t workflow.InputType, n *yaml.Node, path string) any {
	r := l.Resolve(n)
	if strictyaml.IsNull(r) {
		return nil
	}
	if (t == workflow.InputString || t == "") && r.Kind == yaml.ScalarNode {
		return r.Value
	}
	return l.value(n, path, 0, nil)
}

// states decodes the `states:` mapping: `initial:` and one entry per state.
func (l *loader) states(w *workflow.Workflow, pm posMaps, states entry) {
	entries, ok := l.Mapping(states.V, "states", "`states: {initial: build, build: {...}}`")
	if !ok {
		l.hush(states.K) // "no states" would only repeat it
	}
	for _, e := range entries {
		path := "states." + e.Key
		l.record(pm, path, e.K, e.V)
		if e.Key == "initial" {
			if r := l.Resolve(e.V); r != nil && r.Kind == yaml.MappingNode {
				l.Invalid(e.K, "rename this state, and set `initial: <its new name>`",
					"`initial` names the first state; it cannot be a state itself")
				l.hush(e.V) // where "no initial state" would be reported
				continue
			}
			w.Initial = l.str(e.V, "states.initial")
			continue
		}
		s, spm, hidden := l.state(e)
		w.States[s.Name] = s
		w.Order = append(w.Order, s.Name)
		copyInto(pm, spm, path+".")
		if hidden != nil && w.States[hidden.Name] == nil {
			w.States[hidden.Name] = hidden // not in Order: listings show what the file shows
		}
	}
}

// state decodes one state. The type is read first so that key errors can name the right keys;
// the common keys go to the State, the others to the spec of the kind that owns them (see
// stateSpecs).
func (l *loader) state(e entry) (*workflow.State, posMaps, *workflow.State) {
	var hidden *workflow.State
	spm := newPosMaps()
	s := &workflow.State{Name: e.Key, Pos: l.Pos(e.K), KeyPos: spm.keys, ValuePos: spm.values}
	es, ok := l.Mapping(e.V, fmt.Sprintf("state %q", e.Key), fmt.Sprintf("`%s: {type: command, command: make, on_success: done}`", e.Key))
	if !ok {
		l.hush(e.K) // a state that is not a mapping has no type, no transitions…
	}
	for _, f := range es {
		if f.Key == "type" {
			s.Type, _ = workflow.ParseStateType(l.str(f.V, "type"))
		}
	}
	specs := newStateSpecs(s.Type)
	all := workflow.StateKeys("")
	for _, f := range es {
		if !contains(all, f.Key) {
			l.unknownStateKey(s, f)
			continue
		}
		l.record(spm, f.Key, f.K, f.V)
		switch f.Key {
		case "type":
		case "description":
			s.Description = l.str(f.V, "description")
		case "timeout":
			s.Timeout = l.timeout(f.V)
		case "on_success":
			s.OnSuccess = l.str(f.V, "on_success")
		case "on_failure":
			s.OnFailure, hidden = l.onFailure(s, f.V, spm)
		case "hooks":
			s.Hooks = l.stepHooks(f.V, spm)
		case "transitions":
			s.Transitions = l.transitions(f.V, spm)
		case "retry":
			s.Retry = l.retry(f.V, spm)
		default:
			l.specKey(specs.owner(f.Key), f, spm)
		}
	}
	s.Spec = specs.result()
	if a, ok := s.Spec.(*workflow.AgentSpec); ok {
		l.checkWritable(a)
	}
	if t, ok := s.Spec.(*workflow.TerminalSpec); ok && t.Status == "" {
		if _, written := spm.keys["status"]; !written {
			t.Status = workflow.StatusSuccess
		}
	}
	return s, spm, hidden
}

// specKey decodes one key of a kind into that kind's spec: one case per kind.
func (l *loader) specKey(spec workflow.Spec, f entry, spm posMaps) {
	switch sp := spec.(type) {
	case *workflow.CommandSpec:
		l.commandKey(sp, f, spm)
	case *workflow.AgentSpec:
		l.agentKey(sp, f, spm)
	case *workflow.TerminalSpec:
		l.terminalKey(sp, f)
	case *workflow.ParallelSpec:
		l.parallelKey(sp, f, spm)
	case *workflow.ForEachSpec:
		l.forEachKey(sp, f, spm)
	case *workflow.WhileSpec:
		l.whileKey(sp, f, spm)
	case *workflow.CallSpec:
		l.callKey(sp, f, spm)
	case *workflow.OperationSpec:
		l.operationKey(sp, f, spm)
	}
}

func (l *loader) commandKey(c *workflow.CommandSpec, f entry, spm posMaps) {
	switch f.Key {
	case "command":
		c.Command = l.str(f.V, "command")
	case "script_file":
		c.ScriptFile = l.str(f.V, "script_file")
	case "continue_on_error":
		c.ContinueOnError = l.boolean(f.V, "continue_on_error", false)
	case "capture":
		c.Capture = l.capture(f.V, spm)
	case "dir":
		c.Dir = l.str(f.V, "dir")
	case "shell":
		c.Shell = l.str(f.V, "shell")
	case "env":
		c.Env = l.stepEnv(f.V, spm)
	}
}

// stepEnv reads a command state's `env:`, a mapping of variable names to text (templates), in
// the order written, recording where each value is as env.NAME.
func (l *loader) stepEnv(n *yaml.Node, spm posMaps) []workflow.EnvVar {
	entries, _ := l.Mapping(n, "env", "`env: {GOFLAGS: -count=1}`")
	out := make([]workflow.EnvVar, 0, len(entries))
	for _, e := range entries {
		l.record(spm, "env."+e.Key, e.K, e.V)
		out = append(out, workflow.EnvVar{Name: e.Key, Value: l.str(e.V, "env."+e.Key)})
	}
	return out
}

func (l *loader) agentKey(a *workflow.AgentSpec, f entry, spm posMaps) {
	switch f.Key {
	case "provider":
		a.Provider = l.str(f.V, "provider")
	case "prompt":
		a.Prompt = l.str(f.V, "prompt")
	case "prompt_file":
		a.PromptFile = l.str(f.V, "prompt_file")
	case "options":
		a.Options = l.options(f.V, spm)
	case "dir":
		a.Dir = l.str(f.V, "dir")
	case "system_prompt":
		a.SystemPrompt = l.str(f.V, "system_prompt")
	case "output_format":
		a.OutputFormat = l.str(f.V, "output_format")
	case "mode":
		a.Mode = l.str(f.V, "mode")
	case "conversation":
		a.Conversation = l.conversation(f.V, spm)
	case "mcp_proxy":
		m, mpm := l.proxy(f)
		a.MCPProxy = m
		copyInto(spm, mpm, "mcp_proxy.")
	}
}

func (l *loader) terminalKey(t *workflow.TerminalSpec, f entry) {
	switch f.Key {
	case "status":
		t.Status = workflow.TerminalStatus(l.str(f.V, "status"))
	case "message":
		t.Message = l.str(f.V, "message")
	}
}

// unknownStateKey reports a key that no state type accepts. Suggestions come from the keys of
// the state's own type first, so `comand` on a command state says `command`.
func (l *loader) unknownStateKey(s *workflow.State, f entry) {
	where := fmt.Sprintf("in state %q", s.Name)
	if f.Key == "call_workflow" {
		l.Diags.Errorf(l.Pos(f.K), fault.UserWorkflowUnknownKey,
			"write `type: call_workflow` with `workflow:`, `inputs:` and `outputs:` directly in the state",
			"unknown key %q %s", f.Key, where)
		return
	}
	own := workflow.StateKeys(s.Type)
	if suggest.Closest(f.Key, own) != "" {
		l.unknownKey(f, fault.UserWorkflowUnknownKey, where, own)
		return
	}
	l.unknownKey(f, fault.UserWorkflowUnknownKey, where, workflow.StateKeys(""))
}

func (l *loader) options(n *yaml.Node, spm posMaps) map[string]any {
	r := l.Resolve(n)
	if strictyaml.IsNull(r) {
		return nil
	}
	if r.Kind != yaml.MappingNode {
		l.Invalid(n, "write it as a mapping, e.g. `options: {model: sonnet}`", "options must be a mapping, got %s", strictyaml.KindName(r))
		return nil
	}
	v, _ := l.value(n, "options", 0, func(path string, k, v *yaml.Node) { l.record(spm, path, k, v) }).(map[string]any)
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// transitionKeys are the keys of one `transitions:` entry.
var transitionKeys = []string{"when", "goto"}

// transitions decodes `transitions: [{when: <expr>, goto: <state>}, …]`, recording where each
// entry, its when and its goto are written.
func (l *loader) transitions(n *yaml.Node, pm posMaps) []workflow.Transition {
	items, _ := l.sequence(n, "transitions", "`- when: 'states.test.ExitCode == 0'` with `goto: deploy` below it")
	out := make([]workflow.Transition, 0, len(items))
	for i, item := range items {
		path := fmt.Sprintf("transitions[%d]", i)
		l.record(pm, path, item, item)
		var tr workflow.Transition
		b := block{fmt.Sprintf("transition #%d", i+1), "`- when: 'states.test.ExitCode == 0'`", transitionKeys, fault.UserWorkflowUnknownKey, "in a transition"}
		l.fields(item, b, pm, path+".", func(e entry) {
			switch e.Key {
			case "when":
				tr.When = l.str(e.V, "when")
			case "goto":
				tr.Goto = l.str(e.V, "goto")
			}
		})
		out = append(out, tr)
	}
	return out
}
