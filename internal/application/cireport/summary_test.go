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

func fixture() Input {
	t0 := time.Unix(1000, 0)
	return Input{
		File: ".awf/workflows/review.yaml",
		Run: runrecord.Record{ID: "r1", Workflow: "review", Status: runrecord.Failed, Started: t0, Ended: t0.Add(3 * time.Second),
			Steps: []runrecord.Step{{Name: "ask", Status: "success", DurationMS: 2500}, {Name: "x", Within: "loop", Status: "success"}, {Name: "check", Status: "failure", DurationMS: 40}}},
		Workflow: &workflow.Workflow{States: map[string]*workflow.State{"ask": {Name: "ask", Pos: fault.Position{Line: 7, Column: 3}}}},
		Calls: []activity.Record{
			{Time: t0.Add(2 * time.Second), Step: "ask", Tool: "Bash", Outcome: activity.OutcomeRefused, Code: "USER.INTENT.REFUSED", Error: "destructive\n::add-mask::x | <b>", Intent: tool.Intent{Variant: tool.VariantDestructive}},
			{Time: t0.Add(time.Second), Step: "ask", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: tool.VariantRead}},
			{Time: t0.Add(3 * time.Second), Step: "ask/2", Tool: "Bash", Outcome: activity.OutcomeError, Error: "rm: Permission denied [sandbox: ... (USER.SANDBOX.DENIED)]",
				Intent: tool.Intent{Variant: tool.VariantWrite}, Sandbox: &tool.Confinement{Enforced: true, Policy: "write"}},
			{Time: t0.Add(4 * time.Second), Step: "gone", Tool: "Bash", Outcome: activity.OutcomeError, Error: "exit 1 (USER.SANDBOX.DENIED)",
				Intent: tool.Intent{Variant: tool.VariantWrite}, Sandbox: &tool.Confinement{Enforced: false}},
		},
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize(fixture(), runrecord.Failed)
	if len(s.Steps) != 2 || s.Steps[0].Name != "ask" || s.Steps[1].Status != "failure" {
		t.Fatalf("steps (main flow only): %+v", s.Steps)
	}
	if s.ToolCalls != 4 || s.ByIntent["read"] != 1 || s.ByIntent["write"] != 2 || s.ByIntent["destructive"] != 1 {
		t.Fatalf("by intent: %d %v", s.ToolCalls, s.ByIntent)
	}
	if len(s.Findings) != 2 {
		t.Fatalf("findings (a refusal, and the one enforced denial): %+v", s.Findings)
	}
	ref, sb := s.Findings[0], s.Findings[1]
	if ref.Kind != KindRefusal || ref.Pos != (fault.Position{File: ".awf/workflows/review.yaml", Line: 7, Column: 3}) {
		t.Fatalf("refusal: %+v", ref)
	}
	if sb.Kind != KindSandbox || sb.Code != fault.UserSandboxDenied || sb.Pos.Line != 7 {
		t.Fatalf("sandbox denial in a sub-step is placed at its state: %+v", sb)
	}
	if s.DurationMS != 3000 {
		t.Fatalf("duration %d", s.DurationMS)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	md := Summarize(fixture(), runrecord.Failed).Markdown()
	for _, want := range []string{"| ask | success | 2.5s |", "### Refusals: 1", "### Sandbox denials: 1", "| destructive | 1 |", "&lt;b&gt;", `\|`} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<b>") || strings.Contains(md, "\n::add-mask") {
		t.Fatalf("a message reached the summary raw:\n%s", md)
	}
}

func TestAnnotations(t *testing.T) {
	got := Summarize(fixture(), runrecord.Failed).Annotations()
	if len(got) != 2 {
		t.Fatalf("%q", got)
	}
	want := "::error file=.awf/workflows/review.yaml,line=7,col=3,title=awf refused Bash::step ask: destructive%0A::add-mask::x | <b> (USER.INTENT.REFUSED)"
	if got[0] != want {
		t.Fatalf("got  %q\nwant %q", got[0], want)
	}
	if !strings.HasPrefix(got[1], "::warning ") || strings.Contains(got[1], "\n") {
		t.Fatalf("sandbox denial: %q", got[1])
	}
}

func TestCommandEscapesProperties(t *testing.T) {
	tests := []struct {
		pos        fault.Position
		title, msg string
		want       string
	}{
		{fault.Position{File: "a,b:c.yaml", Line: 2}, "t", "m", "::error file=a%2Cb%3Ac.yaml,line=2,title=t::m"},
		{fault.Position{}, "", "100%\r\n\x1b[31m", "::error::100%25%0D%0A [31m"},
		{fault.Position{File: "f"}, "x\ny", "m", "::error file=f,title=x%0Ay::m"},
	}
	for _, tt := range tests {
		if got := Command("error", tt.pos, tt.title, tt.msg); got != tt.want {
			t.Errorf("Command = %q, want %q", got, tt.want)
		}
	}
}

func TestValidateAnnotations(t *testing.T) {
	ds := fault.Diagnostics{
		{Code: "USER.WORKFLOW.X", Message: "bad", Hint: "fix it", Severity: fault.SeverityError, Position: fault.Position{Line: 4, Column: 2}},
		{Code: "USER.WORKFLOW.W", Message: "meh", Severity: fault.SeverityWarning, Position: fault.Position{File: "other.yaml", Line: 1}},
	}
	got := ValidateAnnotations(ds, "w.yaml")
	if got[0] != "::error file=w.yaml,line=4,col=2,title=USER.WORKFLOW.X::bad (hint: fix it)" || !strings.HasPrefix(got[1], "::warning file=other.yaml,line=1,") {
		t.Fatalf("%q", got)
	}
}

func TestSARIF(t *testing.T) {
	b, err := Summarize(fixture(), runrecord.Failed).SARIF("v1")
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID, Level string
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	if log.Version != "2.1.0" || len(r.Results) != 2 || len(r.Tool.Driver.Rules) != 2 {
		t.Fatalf("%s", b)
	}
	if r.Results[0].Level != "error" || r.Results[1].Level != "warning" || r.Results[0].Locations[0].PhysicalLocation.Region.StartLine != 7 ||
		r.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != ".awf/workflows/review.yaml" {
		t.Fatalf("%s", b)
	}
}

func TestDuration(t *testing.T) {
	for ms, want := range map[int64]string{850: "850ms", 12345: "12.3s", 245000: "4m5s", 0: "0s"} {
		if got := Duration(ms); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ms, got, want)
		}
	}
}
