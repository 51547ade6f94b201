package run

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Host is what a run knows of where it runs, for the .awf and .context namespaces. cmd/awf
// fills it from the environment adapter; the engine never asks the OS itself.
type Host struct {
	// AWF holds the reference's directories by key (config_dir, scripts_dir, …); a key absent
	// here reads as "".
	AWF        map[string]string
	WorkingDir string
	User       string
	Hostname   string
}

// ErrorInfo is what .error shows in workflow_error hooks and failure terminals' messages.
type ErrorInfo struct {
	Message  string
	State    string
	ExitCode int
	Type     string
}

// hostData is the part of a Scope that is not step results: set once per run, except current
// and err, which a Scope changes by copying hostData.
type hostData struct {
	host     Host
	started  time.Time
	current  string
	err      *ErrorInfo
	readFile func(path string) (string, error)
}

// withHost returns s with the run's host data, its start time and its readFile function.
func (s Scope) withHost(h Host, started time.Time, readFile func(string) (string, error)) Scope {
	s.host = &hostData{host: h, started: started, readFile: readFile}
	return s
}

// At returns s with name as the workflow's current state.
func (s Scope) At(name string) Scope {
	h := s.hostCopy()
	h.current = name
	s.host = &h
	return s
}

// WithError returns s with .error set to e.
func (s Scope) WithError(e ErrorInfo) Scope {
	h := s.hostCopy()
	h.err = &e
	s.host = &h
	return s
}

func (s Scope) hostCopy() hostData {
	if s.host == nil {
		return hostData{}
	}
	return *s.host
}

// workflowData is .workflow: id, name, duration so far and current state, in both casings.
func (s Scope) workflowData() map[string]any {
	h := s.hostCopy()
	d := ""
	if !h.started.IsZero() {
		d = time.Since(h.started).Round(time.Millisecond).String()
	}
	return map[string]any{
		"ID": s.workflow.ID, "Name": s.workflow.Name, "Duration": d, "CurrentState": h.current,
		"id": s.workflow.ID, "name": s.workflow.Name, "duration": d, "current_state": h.current,
	}
}

// awfData is .awf: every documented directory key, "" when the run was not told it.
func (h *hostData) awfData() map[string]any {
	out := make(map[string]any, len(workflow.AWFDirKeys))
	for _, k := range workflow.AWFDirKeys {
		out[k] = ""
		if h != nil {
			out[k] = h.host.AWF[k]
		}
	}
	return out
}

// contextData is .context: the working directory, user and host name.
func (h *hostData) contextData() map[string]any {
	var c Host
	if h != nil {
		c = h.host
	}
	return map[string]any{
		"WorkingDir": c.WorkingDir, "User": c.User, "Hostname": c.Hostname,
		"working_dir": c.WorkingDir, "user": c.User, "hostname": c.Hostname,
	}
}

// errorData is .error; before any failure its fields are empty, so a failure terminal reached
// without one still renders its message.
func (h *hostData) errorData() map[string]any {
	var e ErrorInfo
	if h != nil && h.err != nil {
		e = *h.err
	}
	return map[string]any{
		"Message": e.Message, "State": e.State, "ExitCode": e.ExitCode, "Type": e.Type,
		"message": e.Message, "state": e.State, "exit_code": e.ExitCode, "type": e.Type,
	}
}

// lazyJSON parses a step's output as JSON once, on first use, and only if a template asks.
type lazyJSON struct {
	once sync.Once
	v    any
}

// jsonValue is the step's JSON: set by its executor, else its output parsed when it is a JSON
// object or array, else nil.
func (d StateData) jsonValue() any {
	if d.JSON != nil || d.json == nil {
		return d.JSON
	}
	d.json.once.Do(func() { d.json.v = parseJSONOutput(d.Output) })
	return d.json.v
}

// parseJSONOutput returns text parsed as a JSON object or array, nil for anything else.
func parseJSONOutput(text string) any {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return nil
	}
	return v
}
