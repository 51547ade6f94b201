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

func TestReplayBook(t *testing.T) {
	at := resumePoint{done: []StepResult{
		{Name: "a", Status: StepSuccess, Output: "main"},
		{Name: "w", Within: "l[0]", Status: StepSuccess, Output: "first"},
		{Name: "w", Within: "l[0]", Status: StepSuccess, Output: "second"},
		{Name: "w", Within: "l[1]", Status: StepFailure, Output: "failed"},
	}}
	b := at.book()
	tests := []struct {
		within, name, want string
		ok                 bool
	}{
		{"l[0]", "w", "first", true},
		{"l[0]", "w", "second", true},
		{"l[0]", "w", "", false},
		{"l[1]", "w", "", false}, // a failure runs again
		{"", "a", "", false},     // main-flow states are in the scope, not replayed
	}
	for _, tt := range tests {
		sr, ok := b.take(tt.within, tt.name)
		if ok != tt.ok || sr.Output != tt.want {
			t.Fatalf("take(%s, %s) = %q %v, want %q %v", tt.within, tt.name, sr.Output, ok, tt.want, tt.ok)
		}
	}
	if _, ok := (*replayBook)(nil).take("x", "y"); ok {
		t.Fatal("a nil book replays")
	}
	sc := at.fill(NewScope(nil, nil, WorkflowInfo{}))
	if d, ok := sc.State("a"); !ok || d.Output != "main" {
		t.Fatal("main step not in scope")
	}
	if _, ok := sc.State("w"); ok {
		t.Fatal("a sub-step leaked into the main scope")
	}
}
