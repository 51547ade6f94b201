package report

import (
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestExitCode(t *testing.T) {
	cases := []struct {
		status, err string
		code        int
		known       bool
	}{
		{runrecord.Succeeded, "", 0, true},
		{runrecord.Interrupted, "whatever", 130, true},
		{runrecord.Failed, "", 2, true},
		{runrecord.Failed, "  ", 2, true},
		{runrecord.Failed, "something broke", 4, true},
		{runrecord.Failed, "wf.yaml:3:4: step x: exit 1 [EXECUTION.COMMAND.FAILED]", 3, true},
		{runrecord.Failed, "[not a code] then [USER.INPUT.MISSING]", 1, true},
		{runrecord.Failed, "[A.B] [x.y.z] [unclosed", 4, true},
		{runrecord.Failed, "[WORKFLOW.TERMINAL.FAILURE]", 2, true},
		{runrecord.Running, "", 0, false},
		{runrecord.Crashed, "", 0, false},
	}
	for _, c := range cases {
		code, known := ExitCode(c.status, c.err)
		if code != c.code || known != c.known {
			t.Errorf("ExitCode(%q, %q) = %d, %v; want %d, %v", c.status, c.err, code, known, c.code, c.known)
		}
	}
}

func TestText(t *testing.T) {
	tx := newText(redact.New([]string{"API_TOKEN=tok-123456"}))
	cases := []struct{ name, got, want string }{
		{"line breaks", tx.line("a\nb\r\nc\td", 100), "a ↵ b ↵ c d"},
		{"escape shown", tx.line("x\x1b[31my\x7f", 100), `x\x1b[31my\x7f`},
		{"c1 control", tx.line("a\u0085b", 100), `a\x85b`},
		{"invalid utf8", tx.line("a\xffb", 100), `a\xffb`},
		{"replacement char kept", tx.line("a\uFFFDb\x01", 100), "a\uFFFDb\\x01"},
		{"block keeps lines", tx.block("a\nb\tc\x1b", 100), "a\nb\tc\\x1b"},
		{"block cr shown", tx.block("a\r\nb", 100), `a\x0d` + "\nb"},
		{"masked", tx.line("key tok-123456 end", 100), "key " + redact.Mask + " end"},
		{"clip", tx.line("abcdef", 3), "abc… (3 more bytes)"},
		{"clip exact", tx.line("abc", 3), "abc"},
		{"clip on rune", tx.line("aé", 2), "a… (2 more bytes)"},
		{"value string", tx.value("s\n", 100), "s ↵ "},
		{"value map", tx.value(map[string]any{"k": "tok-123456"}, 100), `{"k":"` + redact.Mask + `"}`},
		{"value number", tx.value(3, 100), "3"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if got := tx.value(func() {}, 100); !strings.HasPrefix(got, "0x") {
		t.Errorf("a value JSON cannot encode is printed with %%v: %q", got)
	}
	if got := newText(nil).line("plain", 10); got != "plain" {
		t.Errorf("nil redactor: %q", got)
	}
}

// run is a record of a loop, a parallel state and a command, with log lines placing them.
func run() Input {
	rec := runrecord.Record{ID: "r", Workflow: "wf", Status: runrecord.Failed, Error: "boom [EXECUTION.COMMAND.FAILED]",
		Started: t0, Ended: t0.Add(ms(100)), Current: "bad",
		Inputs: map[string]any{"db_password": "pw", "name": "n\x1b"},
		Steps: []runrecord.Step{
			{Name: "body", Within: "each[0]", Type: "agent", Status: "succeeded", DurationMS: 10},
			{Name: "body", Within: "each[1]", Type: "agent", Status: "succeeded", DurationMS: 10},
			{Name: "each", Type: "for_each", Status: "succeeded", DurationMS: 25, Next: "fan"},
			{Name: "a", Within: "fan", Type: "command", Status: "succeeded", DurationMS: 20},
			{Name: "fan", Type: "parallel", Status: "succeeded", DurationMS: 30, Next: "bad"},
			{Name: "sub/s", Type: "command", Status: "failed", DurationMS: 5, Output: "out\x1b"},
		}}
	log := []LogLine{
		{Msg: MsgStepSucceeded, Step: "body", Loop: "each", LoopIndex: 0, Time: t0.Add(ms(12)), Duration: ms(10)},
		{Msg: MsgStepSucceeded, Step: "body", Loop: "each", LoopIndex: 1, Time: t0.Add(ms(24)), Duration: ms(10)},
		{Msg: MsgStepSucceeded, Step: "each", Time: t0.Add(ms(25)), Duration: ms(25)},
		{Msg: MsgStepSucceeded, Step: "a", Parallel: "fan", Time: t0.Add(ms(50)), Duration: ms(20)},
		{Msg: MsgStepSucceeded, Step: "fan", Time: t0.Add(ms(55)), Duration: ms(30)},
		{Msg: MsgStepFailed, Step: "s", Call: "sub", Time: t0.Add(ms(70)), Duration: ms(5)},
		{Msg: MsgModelRequest, Step: "body", Time: t0.Add(ms(20)), PromptTokens: 10, CompletionTokens: 2, CostUSD: 0.5},
		{Msg: MsgModelRequest, Step: "body", Time: t0.Add(ms(21)), PromptTokens: 5, CompletionTokens: 1},
		{Msg: "other", Step: "body", Time: t0.Add(ms(21)), PromptTokens: 99},
	}
	calls := []activity.Record{
		{Step: "body", Tool: "Read", ToolVariant: tool.VariantRead, Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(5)), DurationMS: 1, Arguments: map[string]any{"path": "a.go"}},
		{Step: "body", Tool: "Bash", ToolVariant: tool.VariantWrite, Intent: tool.Intent{Variant: tool.VariantDestructive, Reason: "r"}, Outcome: activity.OutcomeRefused, Time: t0.Add(ms(20))},
		{Step: "s", Tool: "Grep", Outcome: activity.OutcomeError, Error: "bad\nline", Time: t0.Add(ms(58)), Sandbox: &tool.Confinement{Enforced: true, Policy: "write"}},
		{Step: "ghost", Tool: "Write", Outcome: activity.OutcomeSuccess, Time: t0.Add(ms(90)), DurationMS: 20},
	}
	return Input{Record: rec, Log: log, Calls: calls, Redactor: redact.New(nil)}
}

func TestBuildLanesAndCalls(t *testing.T) {
	v := Build(run())
	type lane struct {
		label, kind string
		start, dur  time.Duration
		marks       int
	}
	got := map[string]Lane{}
	for _, l := range v.Lanes {
		got[l.Label] = l
	}
	checks := []lane{
		{"each[0] › body", LaneIteration, ms(2), ms(10), 1},
		{"each[1] › body", LaneIteration, ms(14), ms(10), 1},
		{"each", LaneStep, 0, ms(25), 0},
		{"fan › a", LaneBranch, ms(30), ms(20), 0},
		{"fan", LaneStep, ms(25), ms(30), 0},
		{"sub/s", LaneSubflow, ms(65), ms(5), 1},
		{"ghost", LaneUnfinished, ms(90), ms(20), 1},
	}
	if len(v.Lanes) != len(checks) {
		t.Fatalf("%d lanes, want %d: %+v", len(v.Lanes), len(checks), v.Lanes)
	}
	for _, c := range checks {
		l, ok := got[c.label]
		if !ok {
			t.Errorf("no lane %q", c.label)
			continue
		}
		if l.Kind != c.kind || l.Start != c.start || l.Duration != c.dur || len(l.Marks) != c.marks {
			t.Errorf("lane %q = kind %s start %s dur %s marks %d; want %s %s %s %d", c.label, l.Kind, l.Start, l.Duration, len(l.Marks), c.kind, c.start, c.dur, c.marks)
		}
	}
	if v.Span != ms(110) {
		t.Errorf("span %s, want 110ms", v.Span)
	}
	if v.Lanes[0].Left != 0 || v.Lanes[len(v.Lanes)-1].Left <= 80 {
		t.Errorf("lanes not placed in order: first %v last %v", v.Lanes[0].Left, v.Lanes[len(v.Lanes)-1].Left)
	}
	if v.Totals != (Totals{Calls: 4, Succeeded: 2, Refused: 1, Errors: 1}) {
		t.Errorf("totals %+v", v.Totals)
	}
	if a, b := v.Calls[0].Args, v.Calls[1].Args; a != `{"path":"a.go"}` || b != "" {
		t.Errorf("args %q, %q", a, b)
	}
	c := v.Calls[1]
	if c.N != 2 || !c.Refused() || c.Failed() || c.Variant != "destructive" || c.Declared != "destructive" || c.ToolVariant != "write" || c.Lane != "each[1] › body" {
		t.Errorf("refused call %+v", c)
	}
	if e := v.Calls[2]; !e.Failed() || e.Error != "bad ↵ line" || e.Sandbox != "sandboxed (write policy, no network)" || e.Offset != ms(58) {
		t.Errorf("error call %+v", e)
	}
	if f := v.Filters; strings.Join(f.Tools, ",") != "Bash,Grep,Read,Write" || strings.Join(f.Outcomes, ",") != "error,refused,success" || strings.Join(f.Steps, ",") != "body,ghost,s" {
		t.Errorf("filters %+v", f)
	}
}

func TestBuildHeaderAndSummaries(t *testing.T) {
	in := run()
	in.Alive = func(int) bool { return true }
	v := Build(in)
	h := v.Header
	if h.ExitCode != 3 || !h.ExitKnown || h.Status != runrecord.Failed || h.Duration != ms(100) {
		t.Errorf("header %+v", h)
	}
	if len(h.Inputs) != 2 || h.Inputs[0].Value != redact.Mask || h.Inputs[1].Value != `n\x1b` {
		t.Errorf("inputs %+v", h.Inputs)
	}
	var body StepSummary
	for _, s := range v.Steps {
		if s.Label == "each[1] › body" {
			body = s
		}
	}
	if body.Requests != 2 || body.PromptTokens != 15 || body.OutputTokens != 3 || body.CostUSD != 0.5 || body.Calls != 1 {
		t.Errorf("usage of each[1] › body: %+v", body)
	}
	if last := v.Steps[len(v.Steps)-1]; last.Output != `out\x1b` || last.Calls != 1 {
		t.Errorf("sub/s summary %+v", last)
	}
	if strings.Join(v.Path, ",") != "each,fan,sub/s,bad" {
		t.Errorf("path %v", v.Path)
	}
}

func TestTimelineWithoutLog(t *testing.T) {
	in := run()
	in.Log = nil
	in.Record.Started = time.Time{}
	v := Build(in)
	if v.Lanes[0].Start != 0 {
		t.Errorf("first lane starts at %s", v.Lanes[0].Start)
	}
	var each, fan Lane
	for _, l := range v.Lanes {
		switch l.Label {
		case "each":
			each = l
		case "fan":
			fan = l
		}
	}
	if fan.Start != each.Start+each.Duration {
		t.Errorf("without a log, main steps follow one another: each %s+%s, fan at %s", each.Start, each.Duration, fan.Start)
	}
}

func TestGraphHighlightsPath(t *testing.T) {
	w := &workflow.Workflow{Name: "wf", Initial: "a", Order: []string{"a", "b", "c", "done"}, States: map[string]*workflow.State{
		"a":    {Name: "a", Spec: &workflow.CommandSpec{Command: "x"}, OnSuccess: "b", OnFailure: "c"},
		"b":    {Name: "b", Spec: &workflow.CommandSpec{Command: "x"}, OnSuccess: "done"},
		"c":    {Name: "c", Spec: &workflow.CommandSpec{Command: "x"}, OnSuccess: "done"},
		"done": {Name: "done", Spec: &workflow.TerminalSpec{Status: "success"}},
	}}
	rec := runrecord.Record{Current: "done", Steps: []runrecord.Step{{Name: "a", Next: "b"}, {Name: "b", Next: "done"}}}
	g := graph(w, rec)
	if g == nil {
		t.Fatal("no graph")
	}
	lit := map[string]bool{}
	name := map[string]string{}
	for _, n := range g.Nodes {
		name[n.ID] = n.Name
		lit[n.Name] = n.Highlight
	}
	if !lit["a"] || !lit["b"] || lit["c"] || !lit["done"] {
		t.Errorf("highlights %v", lit)
	}
	taken := map[string]bool{}
	for _, e := range g.Edges {
		if e.Kind != diagram.EdgeMember {
			taken[name[e.From]+">"+name[e.To]] = e.Taken
		}
	}
	if !taken["a>b"] || !taken["b>done"] || taken["a>c"] || taken["c>done"] {
		t.Errorf("taken %v", taken)
	}
}
