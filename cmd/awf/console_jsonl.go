package main

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
)

// jsonlObserver writes `awf run --format jsonl`: one JSON object per event as it happens
// (docs/reference/json-outputs.md), each with schema_version, event and time. Every text from a
// command, a model or a tool is masked; JSON escapes its control characters.
type jsonlObserver struct {
	out io.Writer
	red *redact.Redactor
	mu  sync.Mutex
	// drain, when set, writes the tool calls recorded so far (follower.drain).
	drain func()
}

// Observe implements run.Observer.
func (o *jsonlObserver) Observe(e run.Event) {
	if _, ok := e.(run.StepFinished); ok && o.drain != nil {
		o.drain()
	}
	m := o.red.String
	switch e := e.(type) {
	case run.RunStarted:
		o.emit("run_started", map[string]any{"run_id": e.RunID, "workflow": e.Workflow})
	case run.StepStarted:
		o.emit("step_started", map[string]any{"step": e.Name, "kind": e.Kind, "within": e.Within})
	case run.StepOutput:
		stream := "stdout"
		if e.Stderr {
			stream = "stderr"
		}
		o.emit("step_output", map[string]any{"step": e.Name, "within": e.Within, "stream": stream, "line": m(e.Line)})
	case run.StepRetrying:
		o.emit("step_retrying", map[string]any{"step": e.Name, "attempt": e.Attempt, "of": e.Of, "wait_ms": e.Wait.Milliseconds(),
			"exit_code": e.ExitCode, "error": m(e.Error)})
	case run.StepFinished:
		r := e.Step
		r.Output, r.Stderr, r.Error = m(r.Output), m(r.Stderr), m(r.Error)
		r.Session, r.Response = nil, nil
		o.emit("step_finished", map[string]any{"step": jsonStep{r, r.Duration.Milliseconds()}})
	case run.HookRan:
		o.emit("hook_ran", map[string]any{"hook": e.Hook, "step": e.Step, "action": e.Action, "text": m(e.Text), "output": m(e.Output), "error": m(e.Error)})
	case run.RunFinished:
		doc := map[string]any{"status": e.Status, "terminal": e.Terminal, "duration_ms": e.Duration.Milliseconds(), "exit_code": fault.ExitCode(e.Err)}
		if e.Err != nil {
			doc["error"] = map[string]string{"code": fault.CodeOf(e.Err), "message": m(e.Err.Error())}
		}
		o.emit("run_finished", doc)
	}
}

// call writes one tool call of an agent step, from the step's activity record.
func (o *jsonlObserver) call(r activity.Record) {
	o.emit("tool_call", map[string]any{"step": r.Step, "tool": r.Tool, "kind": r.KindOf(), "variant": string(r.Effective()), "decision": r.Intent.Decision,
		"outcome": string(r.Outcome), "target": o.red.String(callTarget(r)), "turn": r.Turn, "error": o.red.String(r.Error),
		"duration_ms": r.DurationMS})
}

// turn writes one model turn of an HTTP agent step.
func (o *jsonlObserver) turn(m modelTurn) {
	o.emit("model_turn", map[string]any{"step": m.Step, "turn": m.Turn, "prompt_tokens": m.PromptTokens,
		"completion_tokens": m.CompletionTokens, "tool_calls": m.ToolCalls})
}

func (o *jsonlObserver) emit(event string, fields map[string]any) {
	fields["schema_version"] = jsonSchemaVersion
	fields["event"] = event
	fields["time"] = time.Now().UTC().Format(time.RFC3339Nano)
	b, err := json.Marshal(fields)
	if err != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.out.Write(append(b, '\n'))
}
