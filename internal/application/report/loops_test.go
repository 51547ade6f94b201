package report

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// TestCallsAndTokensLandOnTheirIteration: an agent inside a for_each of two iterations running
// side by side (max_concurrent), the second with a parallel state inside, and a nested loop.
// The engine labels the agent's activity records and model requests with the loop indices
// ("review[1]", "inner[1][0]"), so each call and each token lands on its own iteration's lane,
// whatever the timing, and no extra lane is drawn for a labelled step.
func TestCallsAndTokensLandOnTheirIteration(t *testing.T) {
	in := Input{Record: runrecord.Record{Started: t0, Ended: t0.Add(ms(100)),
		Steps: []runrecord.Step{
			{Name: "review", Within: "each[1]", Type: "agent", DurationMS: 40},
			{Name: "review", Within: "each[0]", Type: "agent", DurationMS: 50},
			{Name: "lint", Within: "each[0]/checks", Type: "agent", DurationMS: 10},
			{Name: "inner", Within: "outer[1]/inner[0]", Type: "agent", DurationMS: 10},
			{Name: "inner", Within: "outer[0]/inner[0]", Type: "agent", DurationMS: 10},
			{Name: "each", Type: "for_each", DurationMS: 60},
		}},
		Log: []LogLine{
			{Msg: MsgStepSucceeded, Step: "review", Loop: "each", LoopIndex: 1, Time: t0.Add(ms(45)), Duration: ms(40)},
			{Msg: MsgStepSucceeded, Step: "review", Loop: "each", LoopIndex: 0, Time: t0.Add(ms(55)), Duration: ms(50)},
			{Msg: MsgStepSucceeded, Step: "lint", Loop: "each", LoopIndex: 0, Parallel: "checks", Time: t0.Add(ms(58)), Duration: ms(10)},
			{Msg: MsgStepSucceeded, Step: "inner", Loop: "inner", LoopIndex: 0, Time: t0.Add(ms(70)), Duration: ms(10)},
			{Msg: MsgStepSucceeded, Step: "inner", Loop: "inner", LoopIndex: 0, Time: t0.Add(ms(90)), Duration: ms(10)},
			{Msg: MsgStepSucceeded, Step: "each", Time: t0.Add(ms(60)), Duration: ms(60)},
			// Both iterations run at 20 ms: only the label tells them apart.
			{Msg: MsgModelRequest, Step: "review[0]", Time: t0.Add(ms(20)), PromptTokens: 100, CompletionTokens: 10},
			{Msg: MsgModelRequest, Step: "review[1]", Time: t0.Add(ms(20)), PromptTokens: 7, CompletionTokens: 1},
			{Msg: MsgModelRequest, Step: "review[0]", Time: t0.Add(ms(30)), PromptTokens: 50, CompletionTokens: 5},
			{Msg: MsgModelRequest, Step: "inner[1][0]", Time: t0.Add(ms(65)), PromptTokens: 3},
		},
		Calls: []activity.Record{
			{Step: "review[0]", Tool: "Read", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(20))},
			{Step: "review[0]", Tool: "Grep", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(21))},
			{Step: "review[1]", Tool: "Read", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(20))},
			{Step: "review[0]", Tool: "Bash", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(40)), Kind: activity.KindNetwork,
				Network: &activity.Connection{Host: "example.com", Port: 443}},
			{Step: "lint[0]", Tool: "Read", ToolVariant: tool.VariantRead, Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(50))},
			{Step: "inner[1][0]", Tool: "Read", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(85))}, // nearer outer[0]'s time
		},
	}
	v := Build(in)
	if len(v.Lanes) != len(in.Record.Steps) {
		t.Fatalf("%d lanes for %d steps (a labelled step drew a lane of its own): %+v", len(v.Lanes), len(in.Record.Steps), v.Lanes)
	}
	type want struct {
		calls, prompt, output, requests int
	}
	wants := map[string]want{
		"each[0] › review":          {3, 150, 15, 2},
		"each[1] › review":          {1, 7, 1, 1},
		"each[0]/checks › lint":     {1, 0, 0, 0},
		"outer[1]/inner[0] › inner": {1, 3, 0, 1},
		"outer[0]/inner[0] › inner": {0, 0, 0, 0},
		"each":                      {0, 0, 0, 0},
	}
	for _, s := range v.Steps {
		w, ok := wants[s.Label]
		if !ok {
			t.Errorf("unexpected step %q", s.Label)
			continue
		}
		if s.Calls != w.calls || s.PromptTokens != w.prompt || s.OutputTokens != w.output || s.Requests != w.requests {
			t.Errorf("%s: %d calls, %d/%d tokens in %d requests; want %d calls, %d/%d tokens in %d requests",
				s.Label, s.Calls, s.PromptTokens, s.OutputTokens, s.Requests, w.calls, w.prompt, w.output, w.requests)
		}
	}
	for _, c := range v.Calls {
		if c.Step == "review[1]" && c.Lane != "each[1] › review" {
			t.Errorf("call %d of review[1] on lane %q", c.N, c.Lane)
		}
	}
	lanes := map[string]Lane{}
	for _, l := range v.Lanes {
		lanes[l.Label] = l
	}
	// The branch inside an iteration is placed by its own end line (loop and parallel fields).
	if l := lanes["each[0]/checks › lint"]; l.Start != ms(48) || l.Duration != ms(10) {
		t.Errorf("branch in an iteration placed at %s for %s, want 48ms for 10ms", l.Start, l.Duration)
	}
}
