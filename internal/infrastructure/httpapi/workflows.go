package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/application/executions"
	"github.com/awf-dev/awf/internal/domain/fault"
)

func (s *Server) listWorkflows(w http.ResponseWriter, _ *http.Request) {
	names, err := s.d.Workflows.List()
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := WorkflowList{Workflows: []WorkflowItem{}}
	for _, n := range names {
		it := WorkflowItem{Name: n, Scope: "local", Workflow: n}
		wf, ds, err := s.d.Workflows.Load(n)
		switch {
		case err != nil:
			it.Problem = s.mask(err.Error())
		case wf == nil:
			it.Problem = ds.Errors()[0].Message
		default:
			it.Version, it.Description = wf.Version, wf.Description
		}
		out.Workflows = append(out.Workflows, it)
	}
	writeJSON(w, http.StatusOK, out)
}

// workflowName is the {name} of a workflow path, answered with 404 unless it is one of the
// project's workflows (a name, never a path).
func (s *Server) workflowName(w http.ResponseWriter, r *http.Request) (string, bool) {
	name, ok := pathValue(w, r, "name", "workflow")
	if !ok {
		return "", false
	}
	names, err := s.d.Workflows.List()
	if err != nil {
		s.writeError(w, err)
		return "", false
	}
	if !slices.Contains(names, name) {
		writeProblem(w, http.StatusNotFound, "workflow not found: "+strconvQuote(name)+" (GET /api/workflows lists them)", fault.UserWorkflowNotFound)
		return "", false
	}
	return name, true
}

func (s *Server) getWorkflow(w http.ResponseWriter, r *http.Request) {
	name, ok := s.workflowName(w, r)
	if !ok {
		return
	}
	wf, ds, err := s.d.Workflows.Load(name)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if wf == nil {
		writeProblem(w, http.StatusUnprocessableEntity, "workflow cannot be loaded: "+ds.Errors()[0].Message, ds.Errors()[0].Code)
		return
	}
	d := WorkflowDetail{Name: wf.Name, Version: wf.Version, Description: wf.Description, Initial: wf.Initial,
		Inputs: []WorkflowInput{}, States: map[string]WorkflowStep{}}
	for _, in := range wf.Inputs {
		d.Inputs = append(d.Inputs, WorkflowInput{Name: in.Name, Type: string(in.Type), Required: in.Required, Default: in.Default, Description: in.Description})
	}
	for n, st := range wf.States {
		d.States[n] = WorkflowStep{Type: string(st.Type), Description: st.Description, OnSuccess: st.OnSuccess, OnFailure: st.OnFailure}
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) validateWorkflow(w http.ResponseWriter, r *http.Request) {
	name, ok := s.workflowName(w, r)
	if !ok {
		return
	}
	rep, err := s.d.Validator.Validate(r.Context(), name)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := ValidateResult{Errors: []string{}, Warnings: []string{}}
	for _, d := range rep.Diagnostics.Errors() {
		out.Errors = append(out.Errors, s.mask(d.String()))
	}
	for _, d := range rep.Diagnostics.Warnings() {
		out.Warnings = append(out.Warnings, s.mask(d.String()))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) runWorkflow(w http.ResponseWriter, r *http.Request) {
	name, ok := s.workflowName(w, r)
	if !ok {
		return
	}
	var req RunRequest
	if !readBody(w, r, &req) {
		return
	}
	flags, ok := inputFlagsOf(w, req.Inputs)
	if !ok {
		return
	}
	id, err := s.d.Exec.Start(executions.Request{Workflow: name, Inputs: flags})
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, Accepted{ExecutionID: id, Status: "accepted"})
}

// inputFlagsOf is inputFlags, answering 400 for a name that is not one (empty, or holding
// "=", which would move part of the name into the value).
func inputFlagsOf(w http.ResponseWriter, in map[string]any) ([]string, bool) {
	for k := range in {
		if strings.TrimSpace(k) == "" || strings.ContainsAny(k, "=\x00\n") {
			writeProblem(w, http.StatusBadRequest, "input name "+strconvQuote(k)+" is not a name: inputs are {\"name\": value}", "")
			return nil, false
		}
	}
	return inputFlags(in), true
}

// inputFlags turns JSON inputs into `--input name=value` values: a string as it is, an array
// one value per item (an array input collects them), anything else as JSON text, which is how
// awf reads numbers and booleans from the command line.
func inputFlags(in map[string]any) []string {
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		switch v := in[k].(type) {
		case []any:
			for _, item := range v {
				out = append(out, k+"="+text(item))
			}
		default:
			out = append(out, k+"="+text(v))
		}
	}
	return out
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
