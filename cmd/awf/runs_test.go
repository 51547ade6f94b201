package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

func TestRunsFormatting(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	s := usecase.RunSummary{ID: "r1", Workflow: "w", Status: "interrupted", Current: "b", Started: t0, Duration: 1500 * time.Millisecond,
		ToolCalls: 3, Resumed: 1, Error: "stopped\nmore", Steps: []runrecord.Step{
			{Name: "a", Type: "command", Status: "success", Next: "b", DurationMS: 7},
			{Name: "x", Within: "l[0]", Type: "command", Status: "failure", ExitCode: 2},
		}}
	tests := []struct {
		name  string
		print func(*bytes.Buffer)
		want  []string
		not   []string
	}{
		{"status", func(b *bytes.Buffer) { printStatus(b, s) }, []string{"Run:       r1", "Status:    interrupted", "State:     b",
			"Duration:  1.5s", "Tool calls: 3", "Resumed:   1 time(s)", "Error:     stopped\n", "Steps (2):", "a  ", "l[0] › x", "exit 2",
			"Resume with: awf resume r1"}, []string{"more"}},
		{"status success", func(b *bytes.Buffer) {
			ok := s
			ok.Status, ok.Error, ok.Resumed = "success", "", 0
			printStatus(b, ok)
		},
			[]string{"success"}, []string{"Resume with", "Error:", "Resumed:"}},
		{"history", func(b *bytes.Buffer) { printHistory(b, []usecase.RunSummary{s}) },
			[]string{"RUN", "TOOL CALLS", "r1", "interrupted", "2026-01-02 03:04:05", "1.5s", "3\n"}, nil},
		{"history empty", func(b *bytes.Buffer) { printHistory(b, nil) }, []string{"No runs."}, []string{"RUN"}},
		{"list", func(b *bytes.Buffer) {
			printWorkflows(b, []usecase.WorkflowEntry{{Name: "w", Description: "does w", Inputs: []usecase.WorkflowInput{
				{Name: "n", Type: "integer", Required: true, Description: "how many"}, {Name: "f", Type: "string", Default: "x"}, {Name: "q", Type: "string"}}},
				{Name: "bad", Problem: "line 3: oops\nmore"}})
		}, []string{"w — does w\n", "--input n=<integer>  (required; how many)", "--input f=<string>  (default x)", "--input q=<string>\n",
			"bad\n    (cannot be loaded: line 3: oops)"}, []string{"more"}},
		{"list empty", func(b *bytes.Buffer) { printWorkflows(b, nil) }, []string{"No workflows"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.print(&b)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tt.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("output has %q:\n%s", w, b.String())
				}
			}
		})
	}
	doc := summaryJSON(s)
	if doc["duration_ms"] != int64(1500) || doc["resumed"] != 1 || doc["error"] == nil || doc["steps"] == nil || doc["tool_calls"] != 3 {
		t.Fatalf("json %v", doc)
	}
	if d := summaryJSON(usecase.RunSummary{ID: "x"}); d["resumed"] != nil || d["error"] != nil || d["steps"] != nil || d["active"] != nil {
		t.Fatalf("empty json %v", d)
	}
}
