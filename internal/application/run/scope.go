package run

import (
	"maps"
	"sync"

	"github.com/awf-dev/awf/internal/domain/ports"
)

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
	// fields caches Fields once the state is recorded: every later render reads the same map
	// instead of building one per state per render.
	fields *lazyFields
	// Response is the structured result of operation and call_workflow states; nil otherwise.
	Response map[string]any
	// Session is the conversation of an agent state that tracks one, for continue_from.
	Session *ports.AgentSession
	// Exhausted and Iterations are a loop's: whether it stopped at max_iterations with its
	// condition unmet, and how many iterations it ran; false and 0 for other kinds.
	Exhausted  bool
	Iterations int
}

// Fields are a state's values under both spellings workflows use: the Go names of awf and the
// reference's templates ({{.states.x.Output}}) and the snake case of the reference's other
// workflows ({{states.x.output}}, states.x.exit_code in expressions).
//
// The map of a recorded state is built once and shared by every later render: it must be read
// only, as templates and expressions do.
func (d StateData) Fields() map[string]any {
	if d.fields == nil {
		return d.buildFields()
	}
	d.fields.once.Do(func() { d.fields.m = d.buildFields() })
	return d.fields.m
}

// lazyFields holds a recorded state's Fields, built on first use.
type lazyFields struct {
	once sync.Once
	m    map[string]any
}

func (d StateData) buildFields() map[string]any {
	return map[string]any{
		"Output": d.Output, "output": d.Output,
		"Stderr": d.Stderr, "stderr": d.Stderr,
		"ExitCode": d.ExitCode, "exit_code": d.ExitCode,
		"Status": d.Status, "status": d.Status,
		"JSON": d.jsonValue(), "json": d.jsonValue(),
		"Response": d.Response, "response": d.Response,
		"Exhausted": d.Exhausted, "exhausted": d.Exhausted,
		"Iterations": d.Iterations, "iterations": d.Iterations,
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
	states map[string]*StateData
	parent *Scope
	// host holds what the run knows of its machine and its moment (awf dirs, context, error,
	// current state, readFile); see scope_ns.go.
	host *hostData
	// flow is where in a loop or parallel state this scope is (flow_scope.go); nil at the top.
	flow *flowPos
	// view caches `.states` as templates see it (statesView).
	view *statesView
}

// NewScope returns the root scope of a run. It keeps copies of inputs and env.
func NewScope(inputs map[string]any, env map[string]string, wf WorkflowInfo) Scope {
	return Scope{inputs: maps.Clone(inputs), env: maps.Clone(env), workflow: wf, view: &statesView{}}
}

// WithState returns a scope in which `.states.<name>` is d; s is unchanged.
func (s Scope) WithState(name string, d StateData) Scope {
	states := make(map[string]*StateData, len(s.states)+1)
	maps.Copy(states, s.states)
	d.json, d.fields = &lazyJSON{}, &lazyFields{}
	states[name] = &d
	s.states, s.view = states, &statesView{}
	return s
}

// Fork returns a child scope: it sees everything s sees, and what is recorded in it stays in it.
func (s Scope) Fork() Scope {
	parent := s
	return Scope{inputs: s.inputs, env: s.env, workflow: s.workflow, parent: &parent, host: s.host, flow: s.flow, view: &statesView{}}
}

// State returns the result recorded for name, here or in an ancestor (the nearest wins).
func (s Scope) State(name string) (StateData, bool) {
	for sc := &s; sc != nil; sc = sc.parent {
		if d, ok := sc.states[name]; ok {
			return *d, true
		}
	}
	return StateData{}, false
}

// Data returns the template data as fresh maps, so nothing done to them can change s; under
// `states`, each state's fields are built once per recorded state and shared read-only
// (templates and expressions cannot write to a map), and the set of states once per scope.
func (s Scope) Data() map[string]any {
	data := map[string]any{
		"inputs":   maps.Clone(s.inputs),
		"states":   maps.Clone(s.statesData()),
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

// statesView caches the `states` map of one scope: a scope's states never change once made, and
// only WithState, Fork and NewScope make a scope with other states, each with a fresh view.
type statesView struct {
	once sync.Once
	m    map[string]any
}

// statesData is `.states`: every recorded state's Fields, the nearest scope winning.
func (s Scope) statesData() map[string]any {
	if s.view == nil {
		return s.buildStates()
	}
	s.view.once.Do(func() { s.view.m = s.buildStates() })
	return s.view.m
}

func (s Scope) buildStates() map[string]any {
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
	return states
}
