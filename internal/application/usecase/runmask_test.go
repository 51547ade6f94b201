package usecase

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// A dry run masks secret-named inputs of every type before it places them: shell escaping
// would otherwise split a value holding a quote into pieces no mask recognises.
func TestDryRunMasksSecretInputs(t *testing.T) {
	st := &workflow.State{Name: "go", Type: workflow.StateCommand, OnSuccess: "done",
		Spec: &workflow.CommandSpec{Command: "echo {{.inputs.api_key}} {{.inputs.pin_password}} {{.inputs.deploy_token}} {{.env.SERVICE_CRED}}"}}
	wf := flow(st)
	wf.Inputs = []workflow.Input{{Name: "api_key", Type: workflow.InputString}, {Name: "pin_password", Type: workflow.InputInteger},
		{Name: "deploy_token", Type: workflow.InputArray}}
	fx := newRun(validate.Report{Name: "flow", Workflow: wf})
	pv := &planView{}
	fx.uc.View = pv
	fx.uc.Env = env{"SERVICE_CRED=it's-an-env-cred"}
	fx.uc.Redactor = redact.New(fx.uc.Env.Environ(), "SERVICE_CRED")
	req := RunRequest{Target: "flow", DryRun: true, Inputs: []string{"api_key=it's-a-string-secret", "pin_password=987654321012",
		`deploy_token=["it's-an-item-secret"]`}}
	if err := fx.uc.Do(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	line := pv.plan[0].Lines[0]
	for _, leak := range []string{"a-string", "98765432", "an-item", "env-cred"} {
		if strings.Contains(line, leak) {
			t.Errorf("the plan shows %q: %s", leak, line)
		}
	}
	if !strings.Contains(line, redact.Mask) {
		t.Errorf("no mask in %s", line)
	}
}

// The persister keeps what the run's redactor masked in the record's text as the record's mask
// set, no more of a secret than the record held; status carries it, with the secret-named
// inputs, for the view to mask with.
func TestPersisterKeepsTheMaskSet(t *testing.T) {
	const tok = "envtok-Zq81-secret-value"
	red := redact.New([]string{"SERVICE_TOKEN=" + tok})
	store := &memRuns{}
	p := newPersister(store, runrecord.Record{ID: "r", Inputs: map[string]any{"api_key": "strinput-Kx22", "who": "x " + tok}}, nil)
	p.red = red
	p.keepRecord()
	p.Observe(run.StepFinished{Step: run.StepResult{Name: "a", Output: "cut " + tok[:14] + " late-key-value-9", JSON: map[string]any{"k": tok},
		Session: &runrecord.Session{Messages: []runrecord.Message{{Role: "assistant", Content: "said " + tok}}}}})
	red.AddValue("LATE_KEY", "late-key-value-9") // learnt after step a printed it
	p.Observe(run.StepFinished{Step: run.StepResult{Name: "b", Stderr: "nothing to mask"}})
	p.Observe(run.RunFinished{Status: run.RunFailure, Err: errors.New("failed with " + tok)})
	got := store.recs["r"].Masked
	for _, want := range []string{tok, tok[:14], "late-key-value-9"} {
		if !slices.Contains(got, want) {
			t.Errorf("mask set %q lacks %q", got, want)
		}
	}
	if len(got) != 3 {
		t.Errorf("mask set %q: each text once", got)
	}
	s, err := Runs{Store: store}.Status("r")
	if err != nil {
		t.Fatal(err)
	}
	later := redact.New(nil) // status runs with the variables unset
	later.AddMasks(s.Masked...)
	if out := later.String(s.Steps[0].Output + " " + s.Error + " strinput-Kx22"); strings.Contains(out, "secret") || strings.Contains(out, "Kx22") || strings.Contains(out, "late-key") {
		t.Errorf("status masks %q", out)
	}
}

// BenchmarkPersisterMaskSet is what keeping the mask set costs a run: a step of 4 KB output
// holding one secret is finished and saved (in memory), with and without a redactor.
func BenchmarkPersisterMaskSet(b *testing.B) {
	out := strings.Repeat("ordinary output line of a build step\n", 110) + "token envtok-Zq81-secret-value\n"
	for _, withRed := range []bool{false, true} {
		name := "without"
		if withRed {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			p := newPersister(&memRuns{}, runrecord.Record{ID: "r"}, nil)
			if withRed {
				p.red = redact.New([]string{"SERVICE_TOKEN=envtok-Zq81-secret-value"})
			}
			b.ReportAllocs()
			for b.Loop() {
				p.rec.Steps = p.rec.Steps[:0]
				p.Observe(run.StepFinished{Step: run.StepResult{Name: "a", Output: out}})
			}
		})
	}
}
