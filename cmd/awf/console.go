package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/redact"
)

// textObserver prints each step of a run to the terminal as it starts and ends, from the run's
// events, and, by its mode, each line of a command's output as it comes (streaming), each
// step's output when it ends (buffered), or neither (silent). The run's events and the
// follower of its activity write from two goroutines: mu keeps their lines whole.
type textObserver struct {
	out  io.Writer
	red  *redact.Redactor // masks step output before it is cut into lines
	mode string           // outputStreaming, outputBuffered or outputSilent; "" is buffered
	mu   sync.Mutex
	// running are the steps started and not yet finished, by within and name.
	running map[string]*liveStep
	// drain, when set, shows the tool calls recorded so far (follower.drain).
	drain func()
}

// Observe implements run.Observer.
func (o *textObserver) Observe(e run.Event) {
	if _, ok := e.(run.StepFinished); ok && o.drain != nil {
		o.drain() // the step's calls before its end, outside mu: they print through it
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch e := e.(type) {
	case run.StepStarted:
		o.started(e)
		fmt.Fprintf(o.out, "▶ %s (%s)%s\n", e.Name, e.Kind, within(e.Within))
	case run.StepOutput:
		o.line(e)
	case run.StepRetrying:
		fmt.Fprintf(o.out, "↻ %s attempt %d of %d failed: %s; again in %s\n", e.Name, e.Attempt, e.Of, firstLine(e.Error), e.Wait.Round(time.Millisecond))
	case run.StepFinished:
		streamed := o.finished(e.Step)
		o.stepFinished(e.Step, streamed)
	case run.HookRan:
		o.hookRan(e)
	}
}

// within names the loop iteration or parallel state a step runs in, " in files[2]".
func within(w string) string {
	if w == "" {
		return ""
	}
	return " in " + w
}

// firstLine is the first line of a message, made visible: messages carry text from commands,
// models and tools.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return visible(s)
}

// stepFinished prints a step's closing line, then its tool summary and, unless the mode is
// silent or its lines were streamed already, its output.
func (o *textObserver) stepFinished(r run.StepResult, streamed bool) {
	r.Output, r.Stderr, r.Error = o.red.String(r.Output), o.red.String(r.Stderr), o.red.String(r.Error)
	mark := "✓"
	if r.Status != run.StepSuccess {
		mark = "✗"
	}
	line := fmt.Sprintf("%s %s%s %s in %s", mark, r.Name, within(r.Within), r.Status, r.Duration.Round(time.Millisecond))
	if r.Attempts > 1 {
		line += fmt.Sprintf(" after %d attempts", r.Attempts)
	}
	if r.Note != "" {
		line += ", " + visible(r.Note)
	}
	errHead, errRest, _ := strings.Cut(r.Error, "\n")
	if r.Status != run.StepSuccess && r.Error != "" {
		line += ": " + visible(errHead)
	}
	if r.Next != "" {
		line += " → " + r.Next
	}
	fmt.Fprintln(o.out, line)
	if r.Status != run.StepSuccess {
		printIndented(o.out, errRest) // a multi-line error, under the line, never as lines of its own
	}
	if r.Tools != "" {
		fmt.Fprintln(o.out, "  "+printable(r.Tools)) // tool names are the model's: escaped
	}
	if o.mode == outputSilent || streamed {
		return
	}
	printIndented(o.out, r.Output)
	if r.Status != run.StepSuccess {
		printIndented(o.out, r.Stderr)
	}
}

// printIndented shows a step's output under its line, at most maxShownLines lines, so the
// terminal shows what happened without drowning in it; the full text is in --format json. Each
// line is made visible: the output is a command's or a model's, and its escape sequences are
// shown, not obeyed.
func printIndented(w io.Writer, text string) {
	const maxShownLines = 20
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == maxShownLines {
			fmt.Fprintf(w, "  │ … %d more lines (see --format json)\n", len(lines)-maxShownLines)
			break
		}
		fmt.Fprintln(w, "  │ "+visible(l))
	}
}

func printRunText(out io.Writer, res *run.Result, err error) {
	switch res.Status {
	case "success":
		fmt.Fprintf(out, "Workflow '%s' succeeded in %s (terminal %s)\n", res.Workflow, res.Duration.Round(time.Millisecond), res.Terminal)
	case "failure":
		fmt.Fprintf(out, "Workflow '%s' failed in %s\n", res.Workflow, res.Duration.Round(time.Millisecond))
	case "interrupted":
		fmt.Fprintf(out, "Workflow '%s' interrupted after %s\n", res.Workflow, res.Duration.Round(time.Millisecond))
	}
}
