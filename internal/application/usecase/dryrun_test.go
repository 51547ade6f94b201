package usecase

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// planView is a view that can show plans.
type planView struct {
	view
	plan []run.PlanStep
}

func (v *planView) Plan(_ string, plan []run.PlanStep) { v.plan = plan }

func TestDryRun(t *testing.T) {
	st := &workflow.State{Name: "go", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: "echo {{.inputs.count}} {{.env.TOKEN}}"}, OnSuccess: "done"}
	tests := []struct {
		name     string
		inputs   []string
		want     string
		wantCode int
	}{
		{name: "known input", inputs: []string{"count=3"}, want: "$ echo 3 "},
		{name: "bad input is a placeholder", inputs: []string{"count=many"}, want: "$ echo '<inputs.count>' ", wantCode: fault.ExitUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newRun(validate.Report{Name: "flow", Workflow: flow(st)})
			pv := &planView{}
			fx.uc.View = pv
			fx.uc.Env = env{"TOKEN=s3cr3t-value"}
			fx.uc.Redactor = redact.New(nil)
			fx.uc.Redactor.AddValue("TOKEN", "s3cr3t-value")
			err := fx.uc.Do(context.Background(), RunRequest{Target: "flow", Inputs: tt.inputs, DryRun: true})
			var rep *Reported
			if (tt.wantCode == 0 && err != nil) || (tt.wantCode != 0 && (!errors.As(err, &rep) || rep.Code != tt.wantCode)) {
				t.Fatalf("err %v", err)
			}
			if len(pv.plan) == 0 || !strings.HasPrefix(pv.plan[0].Lines[0], tt.want) || strings.Contains(pv.plan[0].Lines[0], "s3cr3t") {
				t.Fatalf("plan %+v, want %q", pv.plan, tt.want)
			}
			if fx.ids != 0 || len(fx.logs) != 0 || len(fx.files.made) != 0 {
				t.Fatal("a dry run started a run")
			}
		})
	}
	fx := newRun(validate.Report{Name: "flow", Workflow: flow(st)})
	if err := fx.uc.Do(context.Background(), RunRequest{Target: "flow", DryRun: true}); fault.CodeOf(err) != fault.SystemInternalUnexpected {
		t.Fatalf("a view without plans: %v", err)
	}
}

// catalog is a WorkflowCatalog in memory.
type catalog struct {
	names []string
	err   error
	wfs   map[string]*workflow.Workflow
	ds    fault.Diagnostics
}

func (c catalog) List() ([]string, error) { return c.names, c.err }
func (c catalog) Load(n string) (*workflow.Workflow, fault.Diagnostics, error) {
	if n == "gone" {
		return nil, nil, errors.New("vanished")
	}
	wf := c.wfs[n]
	if wf == nil {
		return nil, c.ds, nil
	}
	return wf, nil, nil
}

func TestListWorkflows(t *testing.T) {
	wf := flow(nil)
	wf.Description = "does it"
	c := catalog{names: []string{"a", "gone", "broken"}, wfs: map[string]*workflow.Workflow{"a": wf},
		ds: fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Severity: fault.SeverityError, Message: "bad yaml"}}}
	got, err := ListWorkflows(c)
	if err != nil || len(got) != 3 {
		t.Fatalf("%v %v", got, err)
	}
	if got[0].Description != "does it" || len(got[0].Inputs) != 1 || got[0].Inputs[0].Name != "count" || got[0].Inputs[0].Default != int64(1) || got[0].Problem != "" {
		t.Fatalf("a: %+v", got[0])
	}
	if got[1].Problem != "vanished" || got[2].Problem != "bad yaml" {
		t.Fatalf("problems %+v", got[1:])
	}
	if _, err := ListWorkflows(catalog{err: errors.New("unreadable")}); err == nil {
		t.Fatal("list error lost")
	}
}

func TestPersisterInterruptedBeforeAnyStep(t *testing.T) {
	store := &memRuns{}
	p := newPersister(store, runrecord.Record{ID: "r", Current: "a"}, nil)
	p.Observe(run.RunFinished{Status: run.RunInterrupted})
	if got := store.recs["r"]; got.Status != runrecord.Interrupted || got.Current != "a" || len(got.Steps) != 0 {
		t.Fatalf("%+v", got)
	}
}
