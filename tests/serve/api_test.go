package serve_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

// flow has a step that prints, one that fails into a handler, and one whose length is an input.
const flow = `name: flow
inputs:
  - name: who
    type: string
    required: true
  - name: secs
    type: integer
    default: 0
states:
  initial: greet
  greet:
    type: command
    command: 'echo "hello {{.inputs.who}}"'
    on_success: check
  check:
    type: command
    command: 'echo checking; exit 3'
    on_success: wait
    on_failure: wait
  wait:
    type: command
    command: 'sleep {{.inputs.secs}}; echo waited'
    on_success: done
  done:
    type: terminal
    status: success
`

type record struct {
	Status string            `json:"status"`
	Inputs map[string]any    `json:"inputs"`
	Steps  []json.RawMessage `json:"steps"`
}

type recStep struct {
	Name, Status, Output string
}

func loadRecord(t *testing.T, root, id string) (record, []recStep) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".awf", "runs", id, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	decode(t, data, &rec)
	var steps []recStep
	for _, raw := range rec.Steps {
		var s recStep
		decode(t, raw, &s)
		steps = append(steps, s)
	}
	return rec, steps
}

// runID starts flow through the API with the reference's request and returns the run's id.
func runFlow(t *testing.T, s *server, inputs string) string {
	t.Helper()
	code, body := s.do(t, "POST", "/api/workflows/local/flow/run", `{"inputs":`+inputs+`}`)
	if code != 202 {
		t.Fatalf("run: %d %s", code, body)
	}
	var acc struct {
		Body struct {
			ExecutionID string `json:"execution_id"`
			Status      string `json:"status"`
		} `json:"body"`
	}
	decode(t, body, &acc)
	if acc.Body.ExecutionID == "" || acc.Body.Status != "accepted" {
		t.Fatalf("run answered %s", body)
	}
	return acc.Body.ExecutionID
}

// The event stream of a run started through the API, read to its end, tells the same story as
// the run's state.json: every recorded step completed or failed in order, with its output, each
// started before, and the workflow's end last.
func TestEventsMatchTheRunsRecord(t *testing.T) {
	s := start(t, project(t, map[string]string{"flow": flow}))
	id := runFlow(t, s, `{"who":"<b>api</b>"}`)
	evs := s.events(t, id)
	rec, steps := loadRecord(t, s.root, id)
	if rec.Status != "success" || len(steps) != 3 {
		t.Fatalf("record: %s with %d steps", rec.Status, len(steps))
	}
	var ends []recStep
	started := map[string]bool{}
	for _, e := range evs {
		name, _ := e.Data["step_name"].(string)
		switch e.Type {
		case "step.started":
			started[name] = true
		case "step.completed", "step.failed":
			if !started[name] {
				t.Errorf("%s of %s before its step.started", e.Type, name)
			}
			out, _ := e.Data["output"].(string)
			ends = append(ends, recStep{Name: name, Status: e.Type, Output: out})
		}
	}
	want := []recStep{{"greet", "step.completed", "hello <b>api</b>\n"}, {"check", "step.failed", ""}, {"wait", "step.completed", "waited\n"}}
	for i, st := range steps {
		if i < len(want) && (st.Name != want[i].Name || strings.TrimSpace(st.Output) != strings.TrimSpace(want[i].Output) && want[i].Output != "") {
			t.Errorf("record step %d: %+v", i, st)
		}
	}
	if len(ends) != len(want) {
		t.Fatalf("step ends %+v, want %+v", ends, want)
	}
	for i := range want {
		if ends[i].Name != steps[i].Name || ends[i].Status != want[i].Status || (want[i].Output != "" && ends[i].Output != steps[i].Output) {
			t.Errorf("event %d: %+v; record %+v", i, ends[i], steps[i])
		}
	}
	last := evs[len(evs)-1]
	if last.Type != "workflow.completed" || last.Data["workflow_name"] != "flow" || last.Data["status"] != "completed" {
		t.Errorf("last event %+v", last)
	}
}

// A run is cancelled through the API (204, and again 204), shows as cancelled, and is resumed
// with the reference's input_overrides and from_step; the resumed run ends well with the
// overridden input recorded.
func TestCancelAndResume(t *testing.T) {
	s := start(t, project(t, map[string]string{"flow": flow}))
	id := runFlow(t, s, `{"who":"x","secs":60}`)
	if !testkit.Eventually(20*time.Second, func() bool { return s.current(t, id) == "wait" }) {
		t.Fatalf("the run never reached its long step")
	}
	for range 2 {
		if code, body := s.do(t, "DELETE", "/api/executions/"+id, ""); code != 204 || len(body) != 0 {
			t.Fatalf("cancel: %d %s", code, body)
		}
	}
	if !testkit.Eventually(20*time.Second, func() bool { return s.status(t, id) == "cancelled" }) {
		t.Fatalf("status after cancel: %s", s.status(t, id))
	}
	code, body := s.do(t, "POST", "/api/executions/"+id+"/resume", `{"input_overrides":{"secs":0},"from_step":"wait"}`)
	if code != 200 || !strings.Contains(string(body), `"execution_id":"`+id+`"`) {
		t.Fatalf("resume: %d %s", code, body)
	}
	evs := s.events(t, id)
	if last := evs[len(evs)-1]; last.Type != "workflow.completed" {
		t.Fatalf("resumed run ended with %+v", last)
	}
	rec, _ := loadRecord(t, s.root, id)
	if rec.Status != "success" || rec.Inputs["secs"] != float64(0) || rec.Inputs["who"] != "x" {
		t.Errorf("record after resume: %s %v", rec.Status, rec.Inputs)
	}
	if code, body := s.do(t, "POST", "/api/executions/"+id+"/resume", `{"input_overrides":{"nope":1}}`); code != 422 {
		t.Errorf("resume of a finished run: %d %s", code, body)
	}
}

func (s *server) execution(t *testing.T, id string) map[string]any {
	code, body := s.do(t, "GET", "/api/executions/"+id, "")
	if code != 200 {
		t.Fatalf("get %s: %d %s", id, code, body)
	}
	var doc struct {
		Body map[string]any `json:"body"`
	}
	decode(t, body, &doc)
	return doc.Body
}

func (s *server) current(t *testing.T, id string) string {
	c, _ := s.execution(t, id)["current_step"].(string)
	return c
}

func (s *server) status(t *testing.T, id string) string {
	c, _ := s.execution(t, id)["status"].(string)
	return c
}

// A run started by `awf run` in the same project is listed by the API and its events replay
// from its files.
func TestCLIRunsShowUp(t *testing.T) {
	root := project(t, map[string]string{"flow": flow})
	s := start(t, root)
	cmd := exec.Command(bins.AWF, "run", "flow", "-i", "who=cli", "--format", "json")
	cmd.Dir, cmd.Env = root, env(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("awf run: %v %s", err, out)
	}
	var res struct {
		RunID string `json:"run_id"`
	}
	decode(t, out, &res)
	code, body := s.do(t, "GET", "/api/executions?workflow=flow", "")
	if code != 200 || !strings.Contains(string(body), res.RunID) {
		t.Fatalf("list: %d %s", code, body)
	}
	var names []string
	for _, e := range s.events(t, res.RunID) {
		if e.Type == "step.completed" || e.Type == "step.failed" {
			names = append(names, e.Data["step_name"].(string))
		}
	}
	if !slices.Equal(names, []string{"greet", "check", "wait"}) {
		t.Errorf("events of the CLI run: %v", names)
	}
}

// A command step's lines reach the event stream as the step writes them (output events marked
// partial), before the step's end, which then carries its whole output. The step waits a
// second first: lines written before a client subscribes are not replayed to it.
func TestOutputLinesStream(t *testing.T) {
	const lines = `name: lines
states:
  initial: talk
  talk:
    type: command
    command: 'sleep 1; for i in 1 2 3; do echo "line $i"; sleep 0.4; done'
    on_success: done
  done:
    type: terminal
    status: success
`
	s := start(t, project(t, map[string]string{"lines": lines}))
	code, body := s.do(t, "POST", "/api/workflows/local/lines/run", `{"inputs":{}}`)
	if code != 202 {
		t.Fatalf("run: %d %s", code, body)
	}
	var acc struct {
		Body struct {
			ExecutionID string `json:"execution_id"`
		}
	}
	decode(t, body, &acc)
	var partial []string
	completed := false
	for _, e := range s.events(t, acc.Body.ExecutionID) {
		switch {
		case e.Type == "output" && e.Data["partial"] == true:
			if completed {
				t.Errorf("line %v after the step ended", e.Data["output"])
			}
			partial = append(partial, e.Data["output"].(string))
		case e.Type == "step.completed":
			completed = true
			if strings.TrimSpace(e.Data["output"].(string)) != "line 1\nline 2\nline 3" {
				t.Errorf("whole output %q", e.Data["output"])
			}
		}
	}
	if !slices.Equal(partial, []string{"line 1", "line 2", "line 3"}) {
		t.Errorf("lines as they came: %q", partial)
	}
}

// A secret-named input echoed by a step is masked in every answer about the run: its events,
// its summary and the runs page.
func TestSecretsMasked(t *testing.T) {
	const leak = `name: leak
inputs:
  - name: api_key
    type: string
    required: true
states:
  initial: echo
  echo:
    type: command
    command: 'echo "key={{.inputs.api_key}}"; exit 1'
    on_success: done
    on_failure: done
  done:
    type: terminal
    status: success
`
	const secret = "sk-live-0123456789abcdefXYZ"
	s := start(t, project(t, map[string]string{"leak": leak}))
	code, body := s.do(t, "POST", "/api/workflows/local/leak/run", `{"inputs":{"api_key":"`+secret+`"}}`)
	if code != 202 {
		t.Fatalf("run: %d %s", code, body)
	}
	var acc struct {
		Body struct {
			ExecutionID string `json:"execution_id"`
		}
	}
	decode(t, body, &acc)
	id := acc.Body.ExecutionID
	var all strings.Builder
	sawOutput := false
	for _, e := range s.events(t, id) {
		data, _ := json.Marshal(e.Data)
		all.Write(data)
		if e.Type == "output" && strings.Contains(e.Data["output"].(string), "key=[REDACTED") {
			sawOutput = true
		}
	}
	for _, p := range []string{"/api/executions/" + id, "/api/executions", "/", "/runs/" + id} {
		_, b := s.do(t, "GET", p, "")
		all.Write(b)
	}
	if !sawOutput {
		t.Fatalf("no output event with the echoed line masked: %s", all.String())
	}
	if strings.Contains(all.String(), secret) {
		t.Errorf("the secret input shows in clear: %s", all.String())
	}
}
