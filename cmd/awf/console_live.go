package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/activity"
)

// Output modes of `awf run -o`, as the reference awf names them.
const (
	outputStreaming = "streaming" // each line of a command's output as it comes, [OUT]/[ERR]
	outputBuffered  = "buffered"  // a step's output under its line when it ends
	outputSilent    = "silent"    // step lines only
)

// heartbeatAfter is how long a step runs silent before the console says it still runs, and
// how often it says so again.
const heartbeatAfter = 10 * time.Second

// liveStep is a step that started and has not finished: what the console needs to prefix its
// lines, say how long it runs and tell whether its output was shown already.
type liveStep struct {
	label, kind string
	start, last time.Time
	lines       int
}

// containers run other steps; only the steps they run print output.
var containers = map[string]bool{"for_each": true, "while": true, "parallel": true, "call_workflow": true}

func stepKey(within, name string) string { return within + "\x00" + name }

func stepLabel(within, name string) string {
	if within == "" {
		return name
	}
	return within + " › " + name
}

func (o *textObserver) started(e run.StepStarted) {
	if o.running == nil {
		o.running = map[string]*liveStep{}
	}
	now := time.Now()
	o.running[stepKey(e.Within, e.Name)] = &liveStep{label: stepLabel(e.Within, e.Name), kind: e.Kind, start: now, last: now}
}

// finished forgets a step and says whether its output was streamed while it ran.
func (o *textObserver) finished(r run.StepResult) bool {
	k := stepKey(r.Within, r.Name)
	s := o.running[k]
	delete(o.running, k)
	return s != nil && s.lines > 0 && o.mode == outputStreaming
}

// line prints one line of a running command in streaming mode: "[OUT]" or "[ERR]", the step's
// label first when several steps run at once, masked and escaped as all step output is.
func (o *textObserver) line(e run.StepOutput) {
	s := o.running[stepKey(e.Within, e.Name)]
	if s != nil {
		s.lines++
		s.last = time.Now()
	}
	if o.mode != outputStreaming {
		return
	}
	tag := "[OUT]"
	if e.Stderr {
		tag = "[ERR]"
	}
	prefix := "  "
	if o.busy() > 1 {
		prefix += printable(stepLabel(e.Within, e.Name)) + " "
	}
	fmt.Fprintf(o.out, "%s%s %s\n", prefix, tag, visible(o.red.String(e.Line)))
}

// busy counts the running steps that do work of their own (not loops, parallel states or calls).
func (o *textObserver) busy() int {
	n := 0
	for _, s := range o.running {
		if !containers[s.kind] {
			n++
		}
	}
	return n
}

// call prints one tool call of an agent step as the step's proxy records it: the step, the
// tool, what it acted on, its variant and the intent rule's decision, and what came of it (a
// refusal with its reason).
func (o *textObserver) call(r activity.Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.mode != outputStreaming {
		return
	}
	line := "  ⚙ " + printable(r.Step) + " " + printable(r.Tool)
	if target := []rune(o.red.String(callTarget(r))); len(target) > 0 {
		if len(target) > 80 {
			target = append(target[:80], '…')
		}
		line += " " + visible(string(target))
	}
	if r.Turn > 0 {
		line += fmt.Sprintf(" (turn %d)", r.Turn)
	}
	if v, d := string(r.Effective()), r.Intent.Decision; v != "" && d != "" {
		line += " [" + printable(v) + ", " + printable(d) + "]"
	}
	line += " → " + string(r.Outcome)
	if r.Outcome != activity.OutcomeSuccess {
		why := r.Error
		if why == "" {
			why = r.Intent.Reason
		}
		if why != "" {
			line += ": " + firstLine(o.red.String(why))
		}
	}
	fmt.Fprintln(o.out, line)
}

// turn prints one model turn of an HTTP agent step: its number, tokens and the tool calls the
// model asked for.
func (o *textObserver) turn(m modelTurn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.mode != outputStreaming {
		return
	}
	fmt.Fprintf(o.out, "  ⋯ %s turn %d: %d prompt + %d output tokens, %d tool call(s) asked\n",
		printable(m.Step), m.Turn, m.PromptTokens, m.CompletionTokens, m.ToolCalls)
}

// callTarget is what a call acted on, for one line: the connection's host for a network
// record, else the first line of the first of the usual argument names; raw, for the caller
// to mask, cut and escape.
func callTarget(r activity.Record) string {
	if r.Network != nil {
		return fmt.Sprintf("%s:%d", r.Network.Host, r.Network.Port)
	}
	for _, k := range []string{"command", "file_path", "path", "pattern", "url", "query"} {
		if v, ok := r.Arguments[k].(string); ok && v != "" {
			v, _, _ = strings.Cut(v, "\n")
			return v
		}
	}
	return ""
}

// heartbeat says, for each step that has run silent for heartbeatAfter, that it still runs
// and for how long, so a long agent or build step is not taken for a hang.
func (o *textObserver) heartbeat(now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range o.running {
		if containers[s.kind] || now.Sub(s.last) < heartbeatAfter {
			continue
		}
		s.last = now
		fmt.Fprintf(o.out, "  … %s still running (%s)\n", printable(s.label), now.Sub(s.start).Round(time.Second))
	}
}
