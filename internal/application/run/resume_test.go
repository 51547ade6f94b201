package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestResumeStartsAtStateWithRecordedOutputs(t *testing.T) {
	wf := flow(cmdState("a", "echo first", "b", ""), cmdState("b", "echo got {{.states.a.Output}}", "done", ""))
	tests := []struct {
		name    string
		from    string
		done    []StepResult
		wantRan []string
		wantErr string
	}{
		{name: "from b skips a", from: "b", done: []StepResult{{Name: "a", Type: "command", Status: StepSuccess, Output: "recorded"}},
			wantRan: []string{"echo got recorded"}},
		{name: "from a reruns all", from: "a", wantRan: []string{"echo first", "echo got first"}},
		{name: "unknown state", from: "bb", wantErr: fault.UserRunUnknownState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{
				"echo first": {Stdout: "first"}, "echo got first": {}, "echo got recorded": {}}}
			r := newRun(t, Options{Commands: sh})
			res, err := r.Resume(context.Background(), wf, map[string]any{"n": 1}, tt.from, tt.done)
			if tt.wantErr != "" {
				if fault.CodeOf(err) != tt.wantErr || !strings.Contains(err.Error(), "b") {
					t.Fatalf("err = %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || res.Status != RunSuccess {
				t.Fatalf("status %s, err %v", res.Status, err)
			}
			if got := strings.Join(sh.commands(), "|"); got != strings.Join(tt.wantRan, "|") {
				t.Fatalf("ran %q, want %q", got, tt.wantRan)
			}
		})
	}
}
