package executions

import (
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
)

func types(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type+":"+e.StepName)
	}
	return out
}

// Snapshots of a run become events in order: a step seen running starts once, a step seen
// only finished gets its start first, tool calls come before the steps they ran in, a loop
// iteration's calls carry it, and the workflow's end comes last.
func TestTrackerSnapshots(t *testing.T) {
	alive := func(int) bool { return true }
	now := time.Unix(100, 0)
	tr := &Tracker{ID: "r", Now: func() time.Time { return now },
		Terminal: func(_ runrecord.Record, s string) bool { return s == "done" }}
	rec := runrecord.Record{ID: "r", Workflow: "w", Status: runrecord.Running, PID: 1, Current: "a"}
	call := activity.Record{ID: "c1", Step: "b[2]", Tool: "Bash", Outcome: activity.OutcomeRefused,
		Intent: tool.Intent{Variant: tool.VariantRead, Decision: "refuse"}, ToolVariant: tool.VariantDestructive}
	steps := []struct {
		rec   runrecord.Record
		calls []activity.Record
		want  []string
	}{
		{rec, nil, []string{"step.started:a"}},
		{rec, nil, nil},
		{with(rec, "b", runrecord.Step{Name: "a", Status: "success", Output: "hi"}), nil, []string{"output:a", "step.completed:a", "step.started:b"}},
		{with(rec, "done", runrecord.Step{Name: "a", Status: "success", Output: "hi"}, runrecord.Step{Name: "b", Status: "failure", Error: "x"}),
			[]activity.Record{call}, []string{"tool.call:b", "step.failed:b"}},
	}
	for i, s := range steps {
		got := types(tr.Next(s.rec, s.calls, alive))
		if len(got) != len(s.want) {
			t.Fatalf("snapshot %d: %v, want %v", i, got, s.want)
		}
		for j := range got {
			if got[j] != s.want[j] {
				t.Fatalf("snapshot %d: %v, want %v", i, got, s.want)
			}
		}
	}
	end := with(rec, "done", runrecord.Step{Name: "a", Status: "success"}, runrecord.Step{Name: "b", Status: "failure"}, runrecord.Step{Name: "c", Within: "loop[0]", Status: "success"})
	end.Status = runrecord.Interrupted
	got := tr.Next(end, []activity.Record{call}, alive)
	if ty := types(got); len(ty) != 3 || ty[0] != "step.started:c" || ty[1] != "step.completed:c" || ty[2] != "workflow.failed:" {
		t.Fatalf("end: %v", ty)
	}
	if last := got[2]; last.Status != "cancelled" || last.WorkflowName != "w" || !tr.Ended() {
		t.Errorf("end event %+v", last)
	}
}

// A tool call's event carries what the live page shows of it: the effective variant (a read
// door on a destructive tool is destructive), decision, outcome and the iteration.
func TestToolCallEvent(t *testing.T) {
	tr := &Tracker{ID: "r", Now: time.Now}
	e := tr.call(activity.Record{ID: "c", Step: "review[12]", Tool: "Bash", DurationMS: 1.5, Outcome: activity.OutcomeRefused,
		Intent: tool.Intent{Variant: tool.VariantRead, Decision: "refuse"}, ToolVariant: tool.VariantDestructive})
	if e.StepName != "review" || e.Iteration == nil || *e.Iteration != 12 || e.Variant != "destructive" || e.Decision != "refuse" || e.Outcome != "refused" || *e.DurationMS != 1.5 {
		t.Errorf("%+v", e)
	}
	if s, it := splitIteration("plain"); s != "plain" || it != nil {
		t.Errorf("plain: %s %v", s, it)
	}
}

func with(rec runrecord.Record, current string, steps ...runrecord.Step) runrecord.Record {
	rec.Current, rec.Steps = current, steps
	return rec
}
