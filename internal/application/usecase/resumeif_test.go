package usecase

import (
	"context"
	"testing"

	"github.com/awf-dev/awf/internal/domain/runrecord"
)

func TestRunOrResume(t *testing.T) {
	tests := []struct {
		name       string
		status     string
		pid        int
		file       string
		inputs     []string
		wantResume bool
	}{
		{name: "crashed, same inputs: resumed", status: runrecord.Running, pid: 7, inputs: []string{"count=2"}, wantResume: true},
		{name: "interrupted, same inputs: resumed", status: runrecord.Interrupted, inputs: []string{"count=2"}, wantResume: true},
		{name: "other inputs: new run", status: runrecord.Interrupted, inputs: []string{"count=3"}},
		{name: "default differs from recorded: new run", status: runrecord.Interrupted},
		{name: "failed: new run", status: runrecord.Failed, inputs: []string{"count=2"}},
		{name: "succeeded: new run", status: runrecord.Succeeded, inputs: []string{"count=2"}},
		{name: "still running: new run", status: runrecord.Running, pid: 42, inputs: []string{"count=2"}},
		{name: "other file: new run", status: runrecord.Interrupted, file: "/proj/other.yaml", inputs: []string{"count=2"}},
		{name: "bad input: new run reports it", status: runrecord.Interrupted, inputs: []string{"count"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, store := resumeFixture(tt.status, tt.pid)
			fx.v.rep.Workflow.File = "/proj/flow.yaml"
			if tt.file != "" {
				fx.v.rep.Workflow.File = tt.file
			}
			_ = fx.uc.RunOrResume(context.Background(), RunRequest{Target: "flow", Inputs: tt.inputs})
			resumed := store.recs["r0"].Resumed == 1
			if resumed != tt.wantResume {
				t.Fatalf("resumed r0: %v, want %v (new runs: %d)", resumed, tt.wantResume, fx.ids)
			}
			if tt.wantResume && (fx.ids != 0 || fx.view.res == nil || fx.view.res.RunID != "r0") {
				t.Fatalf("a resume must keep the run id: new ids %d, result %+v", fx.ids, fx.view.res)
			}
		})
	}
}

func TestRunOrResumeDryRunNeverResumes(t *testing.T) {
	fx, store := resumeFixture(runrecord.Interrupted, 0)
	fx.v.rep.Workflow.File = "/proj/flow.yaml"
	_ = fx.uc.RunOrResume(context.Background(), RunRequest{Target: "flow", Inputs: []string{"count=2"}, DryRun: true})
	if store.recs["r0"].Resumed != 0 || len(fx.logs) != 0 {
		t.Fatalf("a dry run resumed or started: %+v logs %v", store.recs["r0"], fx.logs)
	}
}
