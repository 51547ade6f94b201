package report

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// A 100 ms run makes every position a round percentage.
func TestGeometry(t *testing.T) {
	in := Input{Record: runrecord.Record{Started: t0, Ended: t0.Add(ms(100)), Status: runrecord.Running, PID: 7,
		Steps: []runrecord.Step{
			{Name: "it", Within: "l[0]", DurationMS: 10},
			{Name: "it", Within: "l[1]", DurationMS: 10},
			{Name: "main", DurationMS: 50},
		}},
		Log: []LogLine{
			{Msg: MsgStepSucceeded, Step: "it", Loop: "l", LoopIndex: 0, Time: t0.Add(ms(10)), Duration: ms(10)},
			{Msg: MsgStepSucceeded, Step: "it", Loop: "l", LoopIndex: 1, Time: t0.Add(ms(30)), Duration: ms(10)},
			{Msg: MsgStepSucceeded, Step: "main", Time: t0.Add(ms(50)), Duration: ms(50)},
		},
		Calls: []activity.Record{
			{Step: "it", Time: t0.Add(ms(10)), DurationMS: 0},   // at the end of l[0]: gap 0
			{Step: "it", Time: t0.Add(ms(15)), DurationMS: 0},   // 5 ms from both: the first wins
			{Step: "it", Time: t0.Add(ms(16)), DurationMS: 0},   // nearer l[1]
			{Step: "main", Time: t0.Add(ms(10)), DurationMS: 5}, // inside main
			{Step: "gone", Time: t0.Add(ms(60)), DurationMS: 10, Sandbox: &tool.Confinement{Reason: "no landlock"}},
			{Step: "gone", Time: t0.Add(ms(80)), DurationMS: 20, Sandbox: &tool.Confinement{Enforced: true, Policy: "read", Network: true}},
		},
		Alive: func(int) bool { return false },
	}
	in.Log = append(in.Log, LogLine{Msg: MsgModelRequest, Step: "it", Time: t0.Add(ms(5)), PromptTokens: 4},
		LogLine{Msg: MsgModelRequest, Step: "nosuch", Time: t0.Add(ms(5)), PromptTokens: 100})
	in.Record.Current = "main"
	v := Build(in)
	if v.Header.Status != runrecord.Crashed || v.Header.ExitKnown {
		t.Errorf("a running record whose process is gone is crashed: %+v", v.Header)
	}
	lanes := map[string]Lane{}
	for _, l := range v.Lanes {
		lanes[l.Label] = l
	}
	type geo struct {
		label       string
		left, width float64
		calls       []int
	}
	for _, g := range []geo{
		{"l[0] › it", 0, 10, []int{0, 1}},
		{"l[1] › it", 20, 10, []int{2}},
		{"main", 0, 50, []int{3}},
		{"gone", 60, 40, []int{4, 5}},
	} {
		l := lanes[g.label]
		if l.Left != g.left || l.Width != g.width || len(l.Marks) != len(g.calls) {
			t.Errorf("lane %q at %v+%v with %d marks, want %v+%v with %d", g.label, l.Left, l.Width, len(l.Marks), g.left, g.width, len(g.calls))
			continue
		}
		for i, m := range l.Marks {
			if m.Call != g.calls[i] {
				t.Errorf("lane %q mark %d is call %d, want %d", g.label, i, m.Call, g.calls[i])
			}
		}
	}
	if m := lanes["main"].Marks[0]; m.Left != 10 || m.Width != 5 {
		t.Errorf("mark of call 4 at %v+%v, want 10+5", m.Left, m.Width)
	}
	if c := v.Calls[3]; c.Duration != ms(5) || c.Offset != ms(10) || c.Sandbox != "" || c.Lane != "main" {
		t.Errorf("call 4 %+v", c)
	}
	if s := v.Calls[4].Sandbox; s != "not sandboxed: no landlock" {
		t.Errorf("sandbox %q", s)
	}
	if s := v.Calls[5].Sandbox; s != "sandboxed (read policy)" {
		t.Errorf("sandbox %q", s)
	}
	if v.Span != ms(100) || len(v.Path) != 1 || v.Path[0] != "main" {
		t.Errorf("span %s path %q (current state already last: not repeated)", v.Span, v.Path)
	}
	if s := v.Steps[0]; s.PromptTokens != 4 || s.Requests != 1 || s.Duration != ms(10) {
		t.Errorf("first lane's summary %+v", s)
	}
}

func TestEmptyRun(t *testing.T) {
	v := Build(Input{Record: runrecord.Record{Steps: []runrecord.Step{{Name: "a"}}}})
	if len(v.Lanes) != 1 || v.Lanes[0].Left != 0 || v.Lanes[0].Width != 0 || v.Span != 0 || v.Graph != nil {
		t.Errorf("a run with no time: %+v", v)
	}
	if len(v.Path) != 1 {
		t.Errorf("path %q", v.Path)
	}
	for r, want := range map[rune]bool{0x1f: true, ' ': false, 0x7f: true, 0x80: true, 0x9f: true, 0xa0: false, 'a': false} {
		if isControl(r) != want {
			t.Errorf("isControl(%U) = %v", r, !want)
		}
	}
}

func TestExitCodeNames(t *testing.T) {
	for s, want := range map[string]int{
		"[AB.C] [USER.AZ09.ZA]": 1, // one dot is no code; A, Z, 0, 9 are code characters
		"[USER.a.B]":            4,
		"[USER.B.@]":            4,
		"[USER.B.[]":            4,
		"[USER.B.-]":            4,
	} {
		if code, _ := ExitCode(runrecord.Failed, s); code != want {
			t.Errorf("ExitCode(failed, %q) = %d, want %d", s, code, want)
		}
	}
}
