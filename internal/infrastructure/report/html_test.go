package report

import (
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	apprep "github.com/awf-dev/awf/internal/application/report"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// run is a record with n tool calls spread over one agent step.
func run(n int, name, errText string) apprep.Input {
	rec := runrecord.Record{Version: 1, ID: "r1", Workflow: "w", Status: runrecord.Succeeded, Started: t0, Ended: t0.Add(time.Minute),
		Steps: []runrecord.Step{{Name: "agent", Type: "agent", Status: "success", Output: strings.Repeat("out ", 500), DurationMS: 60000}}}
	in := apprep.Input{Record: rec, Redactor: redact.New(nil)}
	for i := range n {
		out := activity.OutcomeSuccess
		if i%7 == 3 {
			out = activity.OutcomeRefused
		}
		in.Calls = append(in.Calls, activity.Record{ID: fmt.Sprintf("c%d", i), Time: t0.Add(time.Duration(i) * 50 * time.Millisecond), Step: "agent",
			Tool: name, Source: tool.BuiltinSource, Outcome: out, Error: errText, DurationMS: 3,
			Arguments: map[string]any{"file_path": fmt.Sprintf("src/pkg%d/file.go", i), "limit": 200},
			Intent:    tool.Intent{Variant: tool.VariantRead, Decision: "allow"}, ToolVariant: tool.VariantRead})
	}
	return in
}

// Hostile names and errors are text on the page: nothing runs, no element is forged, and the
// one-line cells stay one line.
func TestRenderEscapesHostileValues(t *testing.T) {
	evil := "Read<script>alert(1)</script>\x1b[2J\n</td></tr><tr id=\"call-99\"><td>forged"
	page, err := Render(apprep.Build(run(2, evil, `"><img src=x onerror=alert(2)>`)), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, bad := range []string{"<script>alert", "<img src=x", `<tr id="call-99"`, "\x1b"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if n := strings.Count(s, "<script>"); n != 1 {
		t.Errorf("%d script elements, want only the filter script", n)
	}
	if !strings.Contains(s, html.EscapeString("<script>alert(1)</script>")) {
		t.Error("the hostile tool name is not shown as text")
	}
	if !strings.Contains(s, `Content-Security-Policy" content="default-src 'none'`) {
		t.Error("the page has no CSP forbidding network access")
	}
}

func TestRenderMarksRefusalsAndDrawsTheGraph(t *testing.T) {
	v := apprep.Build(run(4, "Bash", "refused: destructive"))
	page, err := Render(v, []byte(`<?xml version="1.0"?><!DOCTYPE svg><svg id="g"></svg>`), t0)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if got := strings.Count(s, `class="mark v-read refused"`); got != 1 {
		t.Errorf("%d refused marks, want 1 (call 4 of 4)", got)
	}
	if got := strings.Count(s, `<tr id="call-`); got != 4 {
		t.Errorf("%d table rows, want 4", got)
	}
	if !strings.Contains(s, `<svg id="g"></svg>`) || strings.Contains(s, "<?xml") {
		t.Error("the SVG is not inlined without its XML prolog")
	}
	if !strings.Contains(s, "4 tool calls") && !strings.Contains(s, "<strong>4</strong> tool calls") {
		t.Error("the totals are missing")
	}
}

// docs/decisions/0016-diagram-and-report.md: a run of 1,000 tool calls gives a report under 1 MB.
func TestReportOfAThousandCallsIsUnderOneMegabyte(t *testing.T) {
	page, err := Render(apprep.Build(run(1000, "Read", "")), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) >= 1<<20 {
		t.Fatalf("%d bytes for 1,000 calls", len(page))
	}
	t.Logf("%d bytes for 1,000 calls", len(page))
}

// BenchmarkReport1000Calls is building and drawing the report of 1,000 calls (docs/decisions/0016-diagram-and-report.md: under
// 200 ms).
func BenchmarkReport1000Calls(b *testing.B) {
	in := run(1000, "Read", "")
	b.ReportAllocs()
	var size int
	for b.Loop() {
		page, err := Render(apprep.Build(in), nil, t0)
		if err != nil {
			b.Fatal(err)
		}
		size = len(page)
	}
	b.ReportMetric(float64(size), "bytes")
}
