package usecase

import (
	"slices"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Runs answers `awf status` and `awf history` from the runs' persisted state.
type Runs struct {
	Store ports.RunStore
}

// RunSummary is one run as status and history show it. Status is the effective one: a record
// still saying running whose process is gone is crashed.
type RunSummary struct {
	ID        string           `json:"id"`
	Workflow  string           `json:"workflow"`
	Status    string           `json:"status"`
	Current   string           `json:"current,omitempty"`
	Started   time.Time        `json:"started"`
	Duration  time.Duration    `json:"-"`
	ToolCalls int              `json:"tool_calls"`
	Resumed   int              `json:"resumed,omitempty"`
	Error     string           `json:"error,omitempty"`
	Active    []string         `json:"active,omitempty"`
	Steps     []runrecord.Step `json:"steps,omitempty"`
	// Masked is what the run masked (its record's mask set, and the values of its secret-named
	// inputs): a view adds it to its redactor before it shows the run, so nothing the run
	// masked shows in clear once the variables that named it are unset.
	Masked []string `json:"-"`
}

// HistoryFilter narrows awf history; empty fields match everything.
type HistoryFilter struct {
	Workflow string
	Status   string
	// Limit keeps the newest Limit runs; 0 keeps all.
	Limit int
}

// Statuses are the values HistoryFilter.Status accepts (and the words of older releases and
// other tools that runrecord.Canonical maps to them: succeeded, failed, cancelled).
var Statuses = runrecord.Statuses

// Status is one run with its steps.
func (r Runs) Status(id string) (RunSummary, error) {
	rec, err := r.Store.Load(id)
	if err != nil {
		return RunSummary{}, err
	}
	s := r.summary(rec)
	s.Steps = rec.Steps
	return s, nil
}

// History lists the runs, newest first, as the filter narrows them.
func (r Runs) History(f HistoryFilter) ([]RunSummary, error) {
	if f.Status != "" {
		want := runrecord.Canonical(strings.ToLower(f.Status))
		if want == "" {
			return nil, fault.New(fault.UserCLIInvalidStatus, "unknown status %q", f.Status).
				WithHint("%s", suggest.DidYouMean(f.Status, Statuses))
		}
		f.Status = want
	}
	recs, err := r.Store.List()
	if err != nil {
		return nil, err
	}
	out := []RunSummary{}
	for _, rec := range recs {
		s := r.summary(rec)
		if (f.Workflow != "" && s.Workflow != f.Workflow) || (f.Status != "" && s.Status != f.Status) {
			continue
		}
		out = append(out, s)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}

func (r Runs) summary(rec runrecord.Record) RunSummary {
	return RunSummary{ID: rec.ID, Workflow: rec.Workflow, Status: rec.Effective(r.Store.Alive), Current: rec.Current,
		Started: rec.Started, Duration: rec.Duration(), ToolCalls: r.Store.ToolCalls(rec.ID), Resumed: rec.Resumed,
		Error: rec.Error, Active: rec.Active, Masked: slices.Concat(rec.Masked, redact.SecretInputValues(rec.Inputs))}
}

// WorkflowCatalog lists and loads the project's workflows (yamlrepo.Repository).
type WorkflowCatalog interface {
	List() ([]string, error)
	Load(name string) (*workflow.Workflow, fault.Diagnostics, error)
}

// WorkflowEntry is one workflow as awf list shows it.
type WorkflowEntry struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Inputs      []WorkflowInput `json:"inputs"`
	Problem     string          `json:"problem,omitempty"`
}

// WorkflowInput is one declared input of a listed workflow.
type WorkflowInput struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Default     any    `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
}

// ListWorkflows is awf list: every workflow under .awf/workflows; one that cannot be loaded is
// listed with its problem rather than hidden.
func ListWorkflows(c WorkflowCatalog) ([]WorkflowEntry, error) {
	names, err := c.List()
	if err != nil {
		return nil, err
	}
	out := make([]WorkflowEntry, 0, len(names))
	for _, n := range names {
		e := WorkflowEntry{Name: n, Inputs: []WorkflowInput{}}
		wf, ds, err := c.Load(n)
		switch {
		case err != nil:
			e.Problem = err.Error()
		case wf == nil:
			e.Problem = ds.Errors()[0].Message
		default:
			e.Description = wf.Description
			for _, in := range wf.Inputs {
				e.Inputs = append(e.Inputs, WorkflowInput{Name: in.Name, Type: string(in.Type), Required: in.Required, Default: in.Default, Description: in.Description})
			}
		}
		out = append(out, e)
	}
	return out, nil
}
