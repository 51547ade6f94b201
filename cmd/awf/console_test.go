package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/redact"
)

// TestConsoleShowsEscapesInsteadOfObeyingThem feeds the console what a hostile command, model
// or hook could print: OSC 52 (sets the clipboard), a CR followed by a forged success line,
// cursor moves and a screen clear, a bidi override. None may reach the terminal raw, and no
// forged line may start a line of its own.
func TestConsoleShowsEscapesInsteadOfObeyingThem(t *testing.T) {
	const hostile = "ok\x1b]52;c;cm0gLXJmIH4=\x07\r✓ deploy success in 1ms\x1b[2J\x1b[1A\u202etxt.exe\nsecond\x9b31m line"
	events := []run.Event{
		run.StepStarted{Name: "build", Kind: "command"},
		run.StepFinished{Step: run.StepResult{Name: "build", Status: run.StepFailure,
			Output: hostile, Stderr: hostile, Error: hostile}},
		run.StepRetrying{Name: "build", Attempt: 1, Of: 2, Error: hostile},
		run.HookRan{Hook: "workflow_end", Action: "log", Text: hostile},
		run.HookRan{Hook: "workflow_end", Action: "command", Text: hostile, Output: hostile},
		run.HookRan{Hook: "workflow_end", Action: "command", Text: "x", Error: hostile},
	}
	var out bytes.Buffer
	o := &textObserver{out: &out, red: redact.New(nil)}
	for _, e := range events {
		o.Observe(e)
	}
	got := out.String()
	if strings.ContainsAny(got, "\x1b\x07\r\u202e\u009b") || strings.Contains(got, "\x9b") {
		t.Fatalf("raw control characters reached the terminal:\n%q", got)
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "✓") || strings.HasPrefix(line, "second") {
			t.Errorf("a value forged a line of its own: %q", line)
		}
	}
	for _, want := range []string{`\x1b]52;c;`, `\r✓ deploy`, `\u202e`} {
		if !strings.Contains(got, want) {
			t.Errorf("the console does not show %s as text:\n%s", want, got)
		}
	}
}

func TestVisibleKeepsTabsAndPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":    "plain text",
		"a\tb":          "a\tb",
		"a\tb\x1b[0m":   `a` + "\t" + `b\x1b[0m`,
		"bell\x07":      `bell\a`,
		"héllo wörld":   "héllo wörld",
		"bad\xffutf8":   `bad\xffutf8`,
		"zero\u200bwid": `zero\u200bwid`,
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConsoleSaysALoopRanOut: a loop that stopped at max_iterations says so on its line, so
// "the attempts ran out" cannot be read as "the condition was met".
func TestConsoleSaysALoopRanOut(t *testing.T) {
	var out bytes.Buffer
	o := &textObserver{out: &out, red: redact.New(nil)}
	o.Observe(run.StepFinished{Step: run.StepResult{Name: "fix", Status: run.StepSuccess, Output: "completed 3 iterations",
		Iterations: 3, Exhausted: true, Note: "stopped at max_iterations 3 without break_when", Next: "gave_up"}})
	if got := out.String(); !strings.Contains(got, "✓ fix success in 0s, stopped at max_iterations 3 without break_when → gave_up") {
		t.Errorf("console line:\n%s", got)
	}
}
