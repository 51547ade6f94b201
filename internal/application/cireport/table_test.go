package cireport

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestDurationBoundaries(t *testing.T) {
	tests := []struct {
		ms   int64
		want string
	}{
		{1, "1ms"},
		{999, "999ms"},
		{1000, "1s"},
		{1049, "1s"},
		{1050, "1.1s"},
		{59949, "59.9s"},
		{60000, "1m0s"},
		{60499, "1m0s"},
		{60500, "1m1s"},
	}
	for _, tt := range tests {
		if got := Duration(tt.ms); got != tt.want {
			t.Errorf("Duration(%d) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestControlFreeBoundaries(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"a\x00b", "a b"},
		{"a\x1fb", "a b"},
		{"a b", "a b"},
		{"a~b", "a~b"},
		{"a\x7fb", "a b"},
		{"a\u0080b", "a b"},
		{"a\u009fb", "a b"},
		{"a\u00a0b", "a\u00a0b"},
		{"a\u00e9b", "a\u00e9b"},
	}
	for _, tt := range tests {
		if got := controlFree(tt.in); got != tt.want {
			t.Errorf("controlFree(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCellTruncation(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"299 runes", strings.Repeat("é", 299), strings.Repeat("é", 299)},
		{"300 runes kept", strings.Repeat("é", 300), strings.Repeat("é", 300)},
		{"301 runes cut", strings.Repeat("é", 301), strings.Repeat("é", 300) + "…"},
		{"whitespace folded", "  a \t\n b  ", "a b"},
		{"markdown escaped", "a|b`c*d[e]f<g>", `a\|b\` + "`" + `c\*d\[e\]f&lt;g&gt;`},
	}
	for _, tt := range tests {
		if got := cell(tt.in); got != tt.want {
			t.Errorf("%s: cell = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestIntentsOrder(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]int
		want string
	}{
		{"known by power", map[string]int{"destructive": 1, "write": 1, "read": 1, "unknown": 1}, "read,write,destructive,unknown"},
		{"others last, by name", map[string]int{"zeta": 1, "alpha": 1, "unknown": 1, "read": 1}, "read,unknown,alpha,zeta"},
		{"write before destructive", map[string]int{"destructive": 1, "write": 1}, "write,destructive"},
		{"read before write", map[string]int{"write": 1, "read": 1}, "read,write"},
		{"unranked after unknown", map[string]int{"aaa": 1, "unknown": 1}, "unknown,aaa"},
		{"unranked by name", map[string]int{"b": 1, "a": 1, "c": 1}, "a,b,c"},
	}
	for _, tt := range tests {
		if got := strings.Join(intents(tt.in), ","); got != tt.want {
			t.Errorf("%s: intents = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestMarkdownSections(t *testing.T) {
	tests := []struct {
		name     string
		s        Summary
		want     []string
		dontWant []string
	}{
		{
			name:     "no calls, no findings, no report, no error",
			s:        Summary{RunID: "r`1", Workflow: "wf", Status: runrecord.Succeeded, DurationMS: 850},
			want:     []string{"## awf: wf ✅ success\n\n", "Run `r1`, 850ms\n\n### Steps", "### Tool calls: 0\n\n\n### Refusals: 0\n\n\n### Sandbox denials: 0\n\n"},
			dontWant: []string{"| intent | calls |", "report:", "> ", "| step | tool | code | message |"},
		},
		{
			name: "report, error, one call, one refusal",
			s: Summary{RunID: "r2", Workflow: "wf", Status: runrecord.Failed, DurationMS: 2000, ReportPath: "out/r`2.html", Error: "boom",
				Steps: []Step{{Name: "a", Status: "failure", DurationMS: 1500}}, ToolCalls: 1, ByIntent: map[string]int{"write": 1},
				Findings: []Finding{{Kind: KindRefusal, Step: "a", Tool: "Bash", Code: "C1", Message: "no"}}},
			want: []string{"## awf: wf ❌ failure", "Run `r2`, 2s, report: `out/r2.html`\n\n> boom\n\n", "| a | failure | 1.5s |",
				"### Tool calls: 1\n\n| intent | calls |\n| --- | --- |\n| write | 1 |\n",
				"### Refusals: 1\n\n| step | tool | code | message |\n| --- | --- | --- | --- |\n| a | Bash | C1 | no |\n",
				"### Sandbox denials: 0\n\n"},
		},
		{
			name: "sandbox denial only",
			s: Summary{Workflow: "wf", Status: runrecord.Crashed, ToolCalls: 2, ByIntent: map[string]int{"read": 1, "write": 1},
				Findings: []Finding{{Kind: KindSandbox, Step: "b", Tool: "Bash", Code: fault.UserSandboxDenied, Message: "denied"}}},
			want: []string{"💥", "| read | 1 |\n| write | 1 |\n", "### Refusals: 0\n\n\n### Sandbox denials: 1\n\n| step | tool | code | message |",
				"| b | Bash | USER.SANDBOX.DENIED | denied |"},
		},
		{
			name: "interrupted",
			s:    Summary{Workflow: "wf", Status: runrecord.Interrupted},
			want: []string{"⏹ interrupted"},
		},
	}
	for _, tt := range tests {
		md := tt.s.Markdown()
		for _, w := range tt.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: summary lacks %q:\n%s", tt.name, w, md)
			}
		}
		for _, w := range tt.dontWant {
			if strings.Contains(md, w) {
				t.Errorf("%s: summary has %q:\n%s", tt.name, w, md)
			}
		}
	}
}

func TestCommandPositions(t *testing.T) {
	tests := []struct {
		pos        fault.Position
		title, msg string
		want       string
	}{
		{fault.Position{File: "f", Line: 0, Column: 0}, "", "m", "::warning file=f::m"},
		{fault.Position{File: "f", Line: 1, Column: 1}, "", "m", "::warning file=f,line=1,col=1::m"},
		{fault.Position{Line: 1}, "", "m", "::warning line=1::m"},
		{fault.Position{Column: 1}, "", "m", "::warning col=1::m"},
		{fault.Position{Line: -1, Column: -1}, "", "m", "::warning::m"},
		{fault.Position{}, "t", "m", "::warning title=t::m"},
	}
	for _, tt := range tests {
		if got := Command("warning", tt.pos, tt.title, tt.msg); got != tt.want {
			t.Errorf("Command(%+v, %q) = %q, want %q", tt.pos, tt.title, got, tt.want)
		}
	}
}

func TestAnnotationsByKind(t *testing.T) {
	s := Summary{Findings: []Finding{
		{Kind: KindSandbox, Step: "s", Tool: "Bash", Code: fault.UserSandboxDenied, Message: "m1", Pos: fault.Position{File: "w.yaml", Line: 3}},
		{Kind: KindRefusal, Step: "r", Tool: "Write", Code: "C", Message: "m2"},
	}}
	got := s.Annotations()
	want := []string{
		"::warning file=w.yaml,line=3,title=awf sandbox denied Bash::step s: m1 (USER.SANDBOX.DENIED)",
		"::error title=awf refused Write::step r: m2 (C)",
	}
	if len(got) != len(want) {
		t.Fatalf("annotations %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("annotation %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestValidateAnnotationsTable(t *testing.T) {
	tests := []struct {
		d    fault.Diagnostic
		want string
	}{
		{fault.Diagnostic{Code: "E", Message: "bad", Severity: fault.SeverityError, Position: fault.Position{Line: 2}}, "::error file=w.yaml,line=2,title=E::bad"},
		{fault.Diagnostic{Code: "W", Message: "meh", Hint: "h", Severity: fault.SeverityWarning, Position: fault.Position{File: "o.yaml"}}, "::warning file=o.yaml,title=W::meh (hint: h)"},
	}
	for _, tt := range tests {
		got := ValidateAnnotations(fault.Diagnostics{tt.d}, "w.yaml")
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("ValidateAnnotations(%+v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

type sarifOut struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, Version string
				Rules         []struct {
					ID               string
					ShortDescription struct{ Text string }
				}
			}
		}
		Results []struct {
			RuleID, Level string
			Message       struct{ Text string }
			Locations     []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine, StartColumn int }
				}
				LogicalLocations []struct{ Name, FullyQualifiedName, Kind string }
			}
		}
	}
}

func TestSARIFTable(t *testing.T) {
	s := Summary{Workflow: "wf", Findings: []Finding{
		{Kind: KindSandbox, Step: "b", Tool: "Bash", Code: "", Message: "m\x1bx", Pos: fault.Position{File: "w.yaml", Line: 0}},
		{Kind: KindRefusal, Step: "a", Tool: "Write", Code: "A.CODE", Message: "no", Pos: fault.Position{File: "w.yaml", Line: 1, Column: 2}},
		{Kind: KindRefusal, Step: "c", Tool: "Read", Code: "A.CODE", Message: "x"},
	}}
	b, err := s.SARIF("v9")
	if err != nil {
		t.Fatal(err)
	}
	var log sarifOut
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	if r.Tool.Driver.Name != "awf" || r.Tool.Driver.Version != "v9" {
		t.Fatalf("driver: %s", b)
	}
	rules := r.Tool.Driver.Rules
	if len(rules) != 2 || rules[0].ID != "A.CODE" || rules[0].ShortDescription.Text != "a tool call awf refused" ||
		rules[1].ID != KindSandbox || rules[1].ShortDescription.Text != "a confined Bash call the kernel sandbox denied" {
		t.Fatalf("rules, sorted by id, a finding without code under its kind: %s", b)
	}
	tests := []struct {
		rule, level, msg, fqn, uri string
		physical                   bool
		line, col                  int
		region                     bool
	}{
		{KindSandbox, "warning", "step b, Bash: m x", "wf/b/Bash", "w.yaml", true, 0, 0, false},
		{"A.CODE", "error", "step a, Write: no", "wf/a/Write", "w.yaml", true, 1, 2, true},
		{"A.CODE", "error", "step c, Read: x", "wf/c/Read", "", false, 0, 0, false},
	}
	if len(r.Results) != len(tests) {
		t.Fatalf("results: %s", b)
	}
	for i, tt := range tests {
		res := r.Results[i]
		if res.RuleID != tt.rule || res.Level != tt.level || res.Message.Text != tt.msg || len(res.Locations) != 1 {
			t.Errorf("result %d: %+v", i, res)
			continue
		}
		loc := res.Locations[0]
		if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != tt.fqn || loc.LogicalLocations[0].Kind != "function" {
			t.Errorf("result %d logical: %+v", i, loc.LogicalLocations)
		}
		if (loc.PhysicalLocation != nil) != tt.physical {
			t.Errorf("result %d physical: %+v", i, loc.PhysicalLocation)
			continue
		}
		if !tt.physical {
			continue
		}
		if loc.PhysicalLocation.ArtifactLocation.URI != tt.uri || (loc.PhysicalLocation.Region != nil) != tt.region {
			t.Errorf("result %d physical: %+v", i, loc.PhysicalLocation)
			continue
		}
		if tt.region && (loc.PhysicalLocation.Region.StartLine != tt.line || loc.PhysicalLocation.Region.StartColumn != tt.col) {
			t.Errorf("result %d region: %+v", i, loc.PhysicalLocation.Region)
		}
	}
}

func TestSummarizeFindings(t *testing.T) {
	t0 := time.Unix(2000, 0)
	enforced := &tool.Confinement{Enforced: true}
	wf := &workflow.Workflow{States: map[string]*workflow.State{
		"review":   {Pos: fault.Position{Line: 5, Column: 1}},
		"a.b":      {Pos: fault.Position{Line: 9, Column: 4}},
		"a":        {Pos: fault.Position{Line: 2, Column: 2}},
		"":         {Pos: fault.Position{Line: 99, Column: 9}},
		"unplaced": {Pos: fault.Position{Line: 0, Column: 6}},
	}}
	tests := []struct {
		name  string
		call  activity.Record
		wf    *workflow.Workflow
		found bool
		want  Finding
	}{
		{"refusal without message takes its code", activity.Record{Step: "review", Tool: "Bash", Outcome: activity.OutcomeRefused, Code: "C"}, wf, true,
			Finding{Kind: KindRefusal, Step: "review", Tool: "Bash", Code: "C", Message: "C", Pos: fault.Position{File: "w.yaml", Line: 5, Column: 1}}},
		{"sub-step placed at its state", activity.Record{Step: "review/3/lint", Tool: "Bash", Outcome: activity.OutcomeRefused, Code: "C", Error: "e"}, wf, true,
			Finding{Kind: KindRefusal, Step: "review/3/lint", Tool: "Bash", Code: "C", Message: "e", Pos: fault.Position{File: "w.yaml", Line: 5, Column: 1}}},
		{"bracket sub-step", activity.Record{Step: "review[1]", Outcome: activity.OutcomeRefused, Error: "e"}, wf, true,
			Finding{Kind: KindRefusal, Step: "review[1]", Message: "e", Pos: fault.Position{File: "w.yaml", Line: 5, Column: 1}}},
		{"a state whose name has a dot", activity.Record{Step: "a.b", Outcome: activity.OutcomeRefused, Error: "e"}, wf, true,
			Finding{Kind: KindRefusal, Step: "a.b", Message: "e", Pos: fault.Position{File: "w.yaml", Line: 9, Column: 4}}},
		{"leading separator is not a sub-step", activity.Record{Step: "/x", Outcome: activity.OutcomeRefused, Error: "e"}, wf, true,
			Finding{Kind: KindRefusal, Step: "/x", Message: "e", Pos: fault.Position{File: "w.yaml"}}},
		{"state without line", activity.Record{Step: "unplaced", Outcome: activity.OutcomeRefused, Error: "e"}, wf, true,
			Finding{Kind: KindRefusal, Step: "unplaced", Message: "e", Pos: fault.Position{File: "w.yaml"}}},
		{"no workflow", activity.Record{Step: "review", Outcome: activity.OutcomeRefused, Error: "e"}, nil, true,
			Finding{Kind: KindRefusal, Step: "review", Message: "e", Pos: fault.Position{File: "w.yaml"}}},
		{"denial by code", activity.Record{Step: "a", Tool: "Bash", Outcome: activity.OutcomeError, Code: fault.UserSandboxDenied, Sandbox: enforced}, wf, true,
			Finding{Kind: KindSandbox, Step: "a", Tool: "Bash", Code: fault.UserSandboxDenied, Message: fault.UserSandboxDenied, Pos: fault.Position{File: "w.yaml", Line: 2, Column: 2}}},
		{"denial by error text", activity.Record{Step: "a", Tool: "Bash", Outcome: activity.OutcomeError, Code: "X", Error: "no (USER.SANDBOX.DENIED)", Sandbox: enforced}, wf, true,
			Finding{Kind: KindSandbox, Step: "a", Tool: "Bash", Code: fault.UserSandboxDenied, Message: "no (USER.SANDBOX.DENIED)", Pos: fault.Position{File: "w.yaml", Line: 2, Column: 2}}},
		{"enforced but no denial", activity.Record{Step: "a", Outcome: activity.OutcomeError, Code: "X", Error: "exit 1", Sandbox: enforced}, wf, false, Finding{}},
		{"denial code but no sandbox", activity.Record{Step: "a", Outcome: activity.OutcomeError, Code: fault.UserSandboxDenied}, wf, false, Finding{}},
		{"denial code but not enforced", activity.Record{Step: "a", Outcome: activity.OutcomeError, Code: fault.UserSandboxDenied, Sandbox: &tool.Confinement{}}, wf, false, Finding{}},
		{"success", activity.Record{Step: "a", Outcome: activity.OutcomeSuccess}, wf, false, Finding{}},
	}
	for _, tt := range tests {
		tt.call.Time = t0
		s := Summarize(Input{File: "w.yaml", Workflow: tt.wf, Calls: []activity.Record{tt.call}}, runrecord.Failed)
		if s.ToolCalls != 1 {
			t.Errorf("%s: tool calls %d", tt.name, s.ToolCalls)
		}
		if !tt.found {
			if len(s.Findings) != 0 {
				t.Errorf("%s: findings %+v", tt.name, s.Findings)
			}
			continue
		}
		if len(s.Findings) != 1 || s.Findings[0] != tt.want {
			t.Errorf("%s: findings %+v, want %+v", tt.name, s.Findings, tt.want)
		}
	}
}

func TestSummarizeCountsAndOrder(t *testing.T) {
	t0 := time.Unix(3000, 0)
	in := Input{
		Run: runrecord.Record{ID: "r", Workflow: "wf", Error: "failed", Started: t0, Ended: t0.Add(1500 * time.Millisecond),
			Steps: []runrecord.Step{{Name: "a", Status: "success", DurationMS: 7, Attempts: 2}}},
		ReportPath: "r.html",
		Calls: []activity.Record{
			{Time: t0.Add(2 * time.Second), Step: "late", Outcome: activity.OutcomeRefused, Error: "second"},
			{Time: t0.Add(time.Second), Step: "early", Outcome: activity.OutcomeRefused, Error: "first"},
			{Time: t0.Add(3 * time.Second), Step: "x", Outcome: activity.OutcomeSuccess},
			{Time: t0.Add(4 * time.Second), Step: "x", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: tool.VariantRead}},
		},
	}
	s := Summarize(in, runrecord.Interrupted)
	if s.ToolCalls != 4 || len(s.ByIntent) != 2 || s.ByIntent["unknown"] != 3 || s.ByIntent["read"] != 1 {
		t.Fatalf("counts: %d %v", s.ToolCalls, s.ByIntent)
	}
	if len(s.Findings) != 2 || s.Findings[0].Message != "first" || s.Findings[1].Message != "second" {
		t.Fatalf("findings in time order: %+v", s.Findings)
	}
	if s.Status != runrecord.Interrupted || s.DurationMS != 1500 || s.Error != "failed" || s.ReportPath != "r.html" || s.RunID != "r" || s.Workflow != "wf" {
		t.Fatalf("header: %+v", s)
	}
	if len(s.Steps) != 1 || s.Steps[0] != (Step{Name: "a", Status: "success", DurationMS: 7, Attempts: 2}) {
		t.Fatalf("steps: %+v", s.Steps)
	}
	if in.Calls[0].Step != "late" {
		t.Fatalf("Summarize reordered its input: %+v", in.Calls)
	}
}
