package run

import "maps"

// StateData is what `.states.<name>` exposes to later steps.
type StateData struct {
	Output   string
	Stderr   string
	ExitCode int
	Status   string
	// JSON is the parsed answer of an agent step with output_format: json; for other steps it
	// is parsed from Output on first use (see scope_ns.go).
	JSON any
	json *lazyJSON
	// Response is the structured result of operation and call_workflow states; nil otherwise.
	Response map[string]any
}

// Fields are a state's values under both spellings workflows use: the Go names of awf and the
// reference's templates ({{.states.x.Output}}) and the snake case of the reference's other
// workflows ({{states.x.output}}, states.x.exit_code in expressions).
func (d StateData) Fields() map[string]any {
	return map[string]any{
		"Output": d.Output, "output": d.Output,
		"Stderr": d.Stderr, "stderr": d.Stderr,
		"ExitCode": d.ExitCode, "exit_code": d.ExitCode,
		"Status": d.Status, "status": d.Status,
		"JSON": d.jsonValue(), "json": d.jsonValue(),
		"Response": d.Response, "response": d.Response,
	}
}

// WorkflowInfo is what `.workflow` exposes: the run's id and the workflow's name.
type WorkflowInfo struct {
	ID   string
	Name string
	// Dir is the workflow file's directory: script_file paths are resolved against it first.
	Dir string
}

// Scope is the data templates see: .inputs, .states, .env and .workflow. It is an immutable
// value: recording a state's result returns a new Scope and leaves the old one as it was, so a
// loop iteration, a parallel branch or a sub-workflow can work in a Fork without its writes
// reaching its parent or its siblings.
type Scope struct {
	inputs   map[string]any
	env      map[string]string
	workflow WorkflowInfo
	// states holds this scope's own results; parent the scope it was forked from. Neither map
	// is ever written after the Scope holding it is made.
	states map[string]StateData
	parent *Scope
	// host holds what the run knows of its machine and its moment (awf dirs, context, error,
	// current state, readFile); see scope_ns.go.
	host *hostData
	// flow is where in a loop or parallel state this scope is (flow_scope.go); nil at the top.
	flow *flowPos
}

// NewScope returns the root scope of a run. It keeps copies of inputs and env.
func NewScope(inputs map[string]any, env map[string]string, wf WorkflowInfo) Scope {
	return Scope{inputs: maps.Clone(inputs), env: maps.Clone(env), workflow: wf}
}

// WithState returns a scope in which `.states.<name>` is d; s is unchanged.
func (s Scope) WithState(name string, d StateData) Scope {
	states := make(map[string]StateData, len(s.states)+1)
	maps.Copy(states, s.states)
	d.json = &lazyJSON{}
	states[name] = d
	s.states = states
	return s
}

// Fork returns a child scope: it sees everything s sees, and what is recorded in it stays in it.
func (s Scope) Fork() Scope {
	parent := s
	return Scope{inputs: s.inputs, env: s.env, workflow: s.workflow, parent: &parent, host: s.host, flow: s.flow}
}

// State returns the result recorded for name, here or in an ancestor (the nearest wins).
func (s Scope) State(name string) (StateData, bool) {
	for sc := &s; sc != nil; sc = sc.parent {
		if d, ok := sc.states[name]; ok {
			return d, true
		}
	}
	return StateData{}, false
}

// Data returns the template data as fresh maps, so nothing a template does can change s.
func (s Scope) Data() map[string]any {
	states := map[string]any{}
	var chain []*Scope
	for sc := &s; sc != nil; sc = sc.parent {
		chain = append(chain, sc)
	}
	for i := len(chain) - 1; i >= 0; i-- { // the root first, so nearer scopes win
		for k, v := range chain[i].states {
			states[k] = v.Fields()
		}
	}
	data := map[string]any{
		"inputs":   maps.Clone(s.inputs),
		"states":   states,
		"env":      maps.Clone(s.env),
		"workflow": s.workflowData(),
		"awf":      s.host.awfData(),
		"context":  s.host.contextData(),
		"error":    s.host.errorData(),
	}
	if l := s.loop(); l != nil {
		data["loop"] = l.fields()
	}
	return data
}
