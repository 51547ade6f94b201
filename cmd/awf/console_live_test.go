package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
)

const liveSecret = "livesecret-Wq19-value"

func liveRedactor() *redact.Redactor { return redact.New([]string{"LIVE_API_TOKEN=" + liveSecret}) }

// TestStreamingConsole: in streaming mode each line shows as it comes with [OUT]/[ERR], the
// step's label in front only while several steps run at once, masked and escaped, and is not
// shown again when the step ends; buffered shows the output only at the end; silent never.
func TestStreamingConsole(t *testing.T) {
	events := []run.Event{
		run.StepStarted{Name: "build", Kind: "command"},
		run.StepOutput{Name: "build", Line: "token " + liveSecret},
		run.StepOutput{Name: "build", Stderr: true, Line: "\x1b]52;c;x\x07\r✓ forged"},
		run.StepFinished{Step: run.StepResult{Name: "build", Status: run.StepSuccess, Output: "token " + liveSecret}},
		run.StepStarted{Name: "each", Kind: "for_each"},
		run.StepStarted{Name: "body", Kind: "command", Within: "each[0]"},
		run.StepOutput{Name: "body", Within: "each[0]", Line: "alone"},
		run.StepStarted{Name: "body", Kind: "command", Within: "each[1]"},
		run.StepOutput{Name: "body", Within: "each[1]", Line: "side by side"},
		run.StepFinished{Step: run.StepResult{Name: "body", Within: "each[1]", Status: run.StepSuccess, Output: "side by side"}},
		run.StepFinished{Step: run.StepResult{Name: "body", Within: "each[0]", Status: run.StepSuccess, Output: "alone"}},
		run.StepFinished{Step: run.StepResult{Name: "each", Status: run.StepSuccess}},
	}
	show := func(mode string) string {
		var out bytes.Buffer
		o := &textObserver{out: &out, red: liveRedactor(), mode: mode}
		for _, e := range events {
			o.Observe(e)
		}
		return out.String()
	}
	got := show(outputStreaming)
	for _, want := range []string{"\n  [OUT] token [REDACTED", `  [ERR] \x1b]52;c;x\a\r✓ forged`, "\n  [OUT] alone\n", "\n  each[1] › body [OUT] side by side\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("streaming: no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, liveSecret) || strings.ContainsAny(got, "\x1b\x07\r") || strings.Contains(got, "│") {
		t.Errorf("streaming: a secret, a raw control character or a repeated output:\n%q", got)
	}
	got = show(outputBuffered)
	if strings.Contains(got, "[OUT]") || !strings.Contains(got, "  │ side by side") {
		t.Errorf("buffered:\n%s", got)
	}
	got = show(outputSilent)
	if strings.Contains(got, "[OUT]") || strings.Contains(got, "side by side") || !strings.Contains(got, "✓ body in each[1] success") {
		t.Errorf("silent:\n%s", got)
	}
}

// TestFollowerShowsCallsAsTheyAreRecorded: the follower hands on each record appended to the
// activity file while it runs (and each model turn of the run's log) (a line written in two parts once whole), none written before it
// started (a resumed run's), all of them by the time drain returns, and the console shows each
// as one masked, escaped line.
func TestFollowerShowsCallsAsTheyAreRecorded(t *testing.T) {
	file := filepath.Join(t.TempDir(), activitylog.FileName)
	line := func(r activity.Record) []byte {
		b, err := activitylog.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		return append(bytes.TrimSuffix(b, []byte("\n")), '\n')
	}
	old := line(activity.Record{Step: "earlier", Tool: "Read", Outcome: activity.OutcomeSuccess})
	if err := os.WriteFile(file, old, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	o := &textObserver{out: &out, red: liveRedactor(), mode: outputStreaming}
	var mu sync.Mutex
	var seen []string
	logFile := filepath.Join(filepath.Dir(file), "run.log")
	f := startFollower([]*tail{newTail(file, callLines(func(r activity.Record) {
		mu.Lock()
		seen = append(seen, r.Step)
		mu.Unlock()
		o.call(r)
	})), newTail(logFile, turnLines(o.turn))}, o.heartbeat)
	if err := os.WriteFile(logFile, []byte(`{"level":"info","msg":"step succeeded","step":"x"}`+"\n"+
		`{"level":"info","msg":"model request","step":"review[1]","turn":2,"prompt_tokens":1200,"completion_tokens":80,"tool_calls":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	first := line(activity.Record{Step: "review[0]", Tool: "Bash", Outcome: activity.OutcomeSuccess, Turn: 2,
		Arguments: map[string]any{"command": "curl -H 'auth: " + liveSecret + "' x\x1b[2J\nsecond line"}})
	refused := line(activity.Record{Step: "review[1]", Tool: "Write", Outcome: activity.OutcomeRefused, Arguments: map[string]any{"file_path": "/etc/passwd"},
		Error: "refused: outside the step's root", Intent: tool.Intent{Variant: tool.VariantWrite, Decision: "deny"}})
	_, _ = fh.Write(first[:10])
	time.Sleep(2 * followEvery)
	_, _ = fh.Write(append(first[10:], refused...))
	_ = fh.Close()
	f.drain() // what was recorded so far is handed on before drain returns
	mu.Lock()
	drained := len(seen)
	mu.Unlock()
	if drained != 2 {
		t.Errorf("after drain %d calls handed on, want 2", drained)
	}
	f.stop()
	if strings.Join(seen, ",") != "review[0],review[1]" {
		t.Fatalf("calls handed on: %v", seen)
	}
	got := out.String()
	for _, want := range []string{"  ⋯ review[1] turn 2: 1200 prompt + 80 output tokens, 1 tool call(s) asked\n", "  ⚙ review[0] Bash curl -H 'auth: [REDACTED", `x\x1b[2J (turn 2) → success`, "  ⚙ review[1] Write /etc/passwd [write, deny] → refused: refused: outside the step's root"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, liveSecret) || strings.Contains(got, "second line") || strings.Contains(got, "\x1b") {
		t.Errorf("a secret, a second line or a raw escape:\n%q", got)
	}
}

// TestHeartbeatSaysALongStepStillRuns: a step silent for heartbeatAfter gets one line saying it
// still runs and for how long; a loop around it does not.
func TestHeartbeatSaysALongStepStillRuns(t *testing.T) {
	var out bytes.Buffer
	o := &textObserver{out: &out, red: liveRedactor(), mode: outputStreaming}
	o.Observe(run.StepStarted{Name: "each", Kind: "for_each"})
	o.Observe(run.StepStarted{Name: "review", Kind: "agent", Within: "each[0]"})
	now := time.Now()
	o.heartbeat(now.Add(heartbeatAfter / 2))
	o.heartbeat(now.Add(heartbeatAfter + time.Second))
	o.heartbeat(now.Add(heartbeatAfter + 2*time.Second)) // said 1 s ago: not again yet
	if got := out.String(); strings.Count(got, "still running") != 1 || !strings.Contains(got, "  … each[0] › review still running (11s)") {
		t.Errorf("heartbeat:\n%s", got)
	}
}

// TestJSONLinesAreOneObjectPerEvent: --format jsonl writes one JSON object per event, each with
// schema_version, event and time, its text masked.
func TestJSONLinesAreOneObjectPerEvent(t *testing.T) {
	var out bytes.Buffer
	o := &jsonlObserver{out: &out, red: liveRedactor()}
	o.Observe(run.RunStarted{RunID: "r", Workflow: "w"})
	o.Observe(run.StepStarted{Name: "build", Kind: "command"})
	o.Observe(run.StepOutput{Name: "build", Stderr: true, Line: "key " + liveSecret + "\x1b[2J"})
	o.Observe(run.StepFinished{Step: run.StepResult{Name: "build", Status: run.StepSuccess, Output: liveSecret, Duration: time.Second}})
	o.call(activity.Record{Step: "build", Tool: "Read", Outcome: activity.OutcomeSuccess})
	o.Observe(run.RunFinished{Status: run.RunSuccess, Terminal: "done"})
	if strings.Contains(out.String(), liveSecret) || strings.Contains(out.String(), "\x1b") {
		t.Errorf("a secret or a raw escape in:\n%s", out.String())
	}
	var kinds []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", l, err)
		}
		if m["schema_version"] != float64(jsonSchemaVersion) || m["time"] == nil {
			t.Errorf("no schema_version or time: %s", l)
		}
		kinds = append(kinds, m["event"].(string))
		if m["event"] == "step_output" && (m["stream"] != "stderr" || m["step"] != "build") {
			t.Errorf("step_output: %s", l)
		}
		if m["event"] == "step_finished" && m["step"].(map[string]any)["duration_ms"] != float64(1000) {
			t.Errorf("step_finished: %s", l)
		}
	}
	if strings.Join(kinds, ",") != "run_started,step_started,step_output,step_finished,tool_call,run_finished" {
		t.Errorf("events: %v", kinds)
	}
}
