package report

import (
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
)

var mt0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// sample is a run of three steps: a command, an agent with three calls (one refused, one
// failed), and a loop iteration with one call.
func sample() Input {
	rec := runrecord.Record{
		Version: runrecord.Version, ID: "r1", Workflow: "w", Status: runrecord.Failed, Started: mt0, Ended: mt0.Add(10 * time.Second),
		Current: "failed", Error: "step agent: [EXECUTION.COMMAND.FAILED] boom",
		Inputs: map[string]any{"api_token": "abcdefghijkl", "name": "x"},
		Steps: []runrecord.Step{
			{Name: "prep", Type: "command", Status: "success", Output: "ok\n", Next: "agent", DurationMS: 1000},
			{Name: "agent", Type: "agent", Status: "failure", Output: "done", Next: "failed", DurationMS: 6000},
			{Name: "body", Type: "command", Status: "success", Within: "loop[0]", DurationMS: 500},
		},
	}
	call := func(sec float64, step, name string, out activity.Outcome, v tool.Variant) activity.Record {
		return activity.Record{ID: name, Time: mt0.Add(time.Duration(sec * float64(time.Second))), Step: step, Tool: name, Source: tool.BuiltinSource,
			Outcome: out, Intent: tool.Intent{Variant: v, Decision: "allow"}, ToolVariant: v, DurationMS: 100}
	}
	return Input{
		Record: rec,
		Calls: []activity.Record{
			call(2, "agent", "Read", activity.OutcomeSuccess, tool.VariantRead),
			call(3, "agent", "Bash", activity.OutcomeRefused, tool.VariantDestructive),
			call(4, "agent", "Write", activity.OutcomeError, tool.VariantWrite),
			call(8.2, "body", "Grep", activity.OutcomeSuccess, tool.VariantRead),
		},
		Log: []LogLine{
			{Time: mt0.Add(1 * time.Second), Msg: MsgStepSucceeded, Step: "prep", Duration: time.Second},
			{Time: mt0.Add(3500 * time.Millisecond), Msg: MsgModelRequest, Step: "agent", PromptTokens: 100, CompletionTokens: 7, CostUSD: 0.5},
			{Time: mt0.Add(7 * time.Second), Msg: MsgStepFailed, Step: "agent", Duration: 6 * time.Second},
			{Time: mt0.Add(8500 * time.Millisecond), Msg: MsgStepSucceeded, Step: "body", Loop: "loop", LoopIndex: 0, Duration: 500 * time.Millisecond},
		},
		Redactor: redact.New(nil),
	}
}

func TestBuildPlacesStepsAndCalls(t *testing.T) {
	v := Build(sample())
	if len(v.Lanes) != 3 {
		t.Fatalf("%d lanes, want 3: %+v", len(v.Lanes), v.Lanes)
	}
	want := []struct {
		label, kind string
		left, width float64
		marks       int
	}{
		{"prep", LaneStep, 0, 10, 0},
		{"agent", LaneStep, 10, 60, 3},
		{"loop[0] › body", LaneIteration, 80, 5, 1},
	}
	for i, w := range want {
		l := v.Lanes[i]
		if l.Label != w.label || l.Kind != w.kind || !near(l.Left, w.left) || !near(l.Width, w.width) || len(l.Marks) != w.marks {
			t.Errorf("lane %d: %q %s left %.2f width %.2f marks %d; want %+v", i, l.Label, l.Kind, l.Left, l.Width, len(l.Marks), w)
		}
	}
	if m := v.Lanes[1].Marks[1]; !near(m.Left, 30) || !near(m.Width, 1) || v.Calls[m.Call].Tool != "Bash" {
		t.Errorf("Bash mark at %.2f width %.2f call %d", m.Left, m.Width, m.Call)
	}
	if v.Totals != (Totals{Calls: 4, Succeeded: 2, Refused: 1, Errors: 1}) {
		t.Errorf("totals %+v", v.Totals)
	}
	if !v.Calls[1].Refused() || v.Calls[1].Failed() || !v.Calls[2].Failed() || v.Calls[0].Refused() {
		t.Errorf("refused/failed flags wrong: %+v", v.Calls)
	}
	if v.Span != 10*time.Second {
		t.Errorf("span %v", v.Span)
	}
	if strings.Join(v.Path, ",") != "prep,agent,failed" {
		t.Errorf("path %v", v.Path)
	}
	if got := strings.Join(v.Filters.Outcomes, ","); got != "error,refused,success" {
		t.Errorf("outcome filters %q", got)
	}
	s := v.Steps[1]
	if s.Calls != 3 || s.Requests != 1 || s.PromptTokens != 100 || s.OutputTokens != 7 || s.CostUSD != 0.5 {
		t.Errorf("agent summary %+v", s)
	}
	if v.Steps[2].Label != "loop[0] › body" || v.Steps[2].Calls != 1 {
		t.Errorf("iteration summary %+v", v.Steps[2])
	}
}

func near(a, b float64) bool { return a-b < 0.01 && b-a < 0.01 }

func TestBuildHeaderMasksAndExplains(t *testing.T) {
	in := sample()
	in.Redactor = redact.New([]string{"GH_TOKEN=ghs_secretvalue123"})
	in.Record.Steps[0].Output = "token ghs_secretvalue123 here"
	in.Calls[0].Tool = "Re\x1b[31mad\nforged | row"
	in.Calls[0].Error = "\r\n<script>alert(1)</script>"
	v := Build(in)
	h := v.Header
	if h.ExitCode != fault.ExitExecution || !h.ExitKnown {
		t.Errorf("exit %d known %v; an EXECUTION failure is %d", h.ExitCode, h.ExitKnown, fault.ExitExecution)
	}
	for _, kv := range h.Inputs {
		if kv.Name == "api_token" && kv.Value != redact.Mask {
			t.Errorf("a secret-named input shows %q", kv.Value)
		}
		if kv.Name == "name" && kv.Value != "x" {
			t.Errorf("input name shows %q", kv.Value)
		}
	}
	if strings.Contains(v.Steps[0].Output, "secretvalue") {
		t.Errorf("a secret reached the summary: %q", v.Steps[0].Output)
	}
	if tl := v.Calls[0].Tool; strings.ContainsAny(tl, "\x1b\n") || !strings.Contains(tl, `\x1b`) || !strings.Contains(tl, "↵") {
		t.Errorf("control characters not made visible in %q", tl)
	}
	if e := v.Calls[0].Error; strings.ContainsAny(e, "\r\n") {
		t.Errorf("a line break survived in a one-line cell: %q", e)
	}
}

func TestExitCodeOfStatuses(t *testing.T) {
	for _, c := range []struct {
		status, err string
		code        int
		known       bool
	}{
		{runrecord.Succeeded, "", fault.ExitOK, true},
		{runrecord.Interrupted, "", fault.ExitInterrupted, true},
		{runrecord.Failed, "", fault.ExitWorkflow, true},
		{runrecord.Failed, "  ", fault.ExitWorkflow, true},
		{runrecord.Failed, "w.yaml:3:4: [USER.INPUT.MISSING] x", fault.ExitUser, true},
		{runrecord.Failed, "[not a code] then [EXECUTION.COMMAND.FAILED] y", fault.ExitExecution, true},
		{runrecord.Failed, "plain failure", fault.ExitSystem, true},
		{runrecord.Failed, "[A.B] [a.b.c] [", fault.ExitSystem, true},
		{runrecord.Running, "", 0, false},
		{runrecord.Crashed, "", 0, false},
	} {
		code, known := ExitCode(c.status, c.err)
		if code != c.code || known != c.known {
			t.Errorf("ExitCode(%q, %q) = %d, %v; want %d, %v", c.status, c.err, code, known, c.code, c.known)
		}
	}
}

func TestCallsOfAStepTheRecordLacksGetALane(t *testing.T) {
	in := sample()
	in.Calls = append(in.Calls, activity.Record{Time: mt0.Add(9 * time.Second), Step: "stopped", Tool: "Read", Outcome: activity.OutcomeSuccess, DurationMS: 10})
	v := Build(in)
	last := v.Lanes[len(v.Lanes)-1]
	if last.Name != "stopped" || last.Kind != LaneUnfinished || len(last.Marks) != 1 {
		t.Fatalf("lane for the unrecorded step: %+v", last)
	}
}

func TestClipAndVisible(t *testing.T) {
	if got := clip("héllo", 2); got != "h… (5 more bytes)" {
		t.Errorf("clip cut inside a rune or miscounted: %q", got)
	}
	if got := clip("abc", 3); got != "abc" {
		t.Errorf("clip of a short string: %q", got)
	}
	if got := visible("a\tb\r\nc\x7f\xff", true); got != `a b ↵ c\x7f\xff` {
		t.Errorf("visible one-line: %q", got)
	}
	if got := visible("a\tb\nc", false); got != "a\tb\nc" {
		t.Errorf("visible block: %q", got)
	}
}
