package serve_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

// approveFlow is one agent step whose destructive calls wait for approval. Its model (toucher)
// asks for one harmless Bash call, `touch marker`, in the project root.
const approveFlow = `name: approve
states:
  initial: act
  act:
    type: agent
    provider: openai_compatible
    prompt: Touch the marker with Bash, then say done.
    options:
      max_turns: 4
    mcp_proxy:
      enable: true
      intercept_builtins: true
      sandbox: {mode: off}
      intent:
        ask: [destructive]
        approval_timeout: %s
    on_success: done
  done:
    type: terminal
    status: success
`

// toucher is a tiny OpenAI-compatible model: its first answer is one Bash call that touches
// marker; once the conversation holds the tool's result it answers with that result as text.
func toucher(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		msg := map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"id": "call_1", "type": "function",
			"function": map[string]any{"name": "Bash", "arguments": `{"command":"touch marker","description":"touch the test's marker"}`},
		}}}
		finish := "tool_calls"
		for _, m := range req.Messages {
			if m.Role == "tool" {
				msg, finish = map[string]any{"role": "assistant", "content": "done: " + string(m.Content)}, "stop"
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "toucher",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// bashRecord is the Bash call's line of run id's activity file.
func bashRecord(t *testing.T, root, id string) map[string]any {
	t.Helper()
	for _, l := range testkit.JSONLines(t, filepath.Join(root, ".awf", "runs", id, "activity.jsonl")) {
		if l["tool"] == "Bash" {
			return l
		}
	}
	t.Fatalf("run %s recorded no Bash call", id)
	return nil
}

// approval returns the approval of a record as decision/by.
func approval(rec map[string]any) string {
	a, _ := rec["approval"].(map[string]any)
	return fmt.Sprintf("%v/%v", a["decision"], a["by"])
}

// A destructive call in a step with ask: [destructive] waits; the API lists it; approved
// through the API it runs (the marker appears) and the record says approve by api; in a second
// run, denied, it does not run and the record says deny by api.
func TestApprovalThroughTheAPI(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", toucher(t))
	t.Setenv("OPENAI_MODEL", "toucher")
	root := project(t, map[string]string{"approve": fmt.Sprintf(approveFlow, "2m")})
	s := start(t, root)
	marker := filepath.Join(root, "marker")
	for _, tc := range []struct {
		decision, outcome string
		ran               bool
	}{
		{"approve", "success", true},
		{"deny", "refused", false},
	} {
		_ = os.Remove(marker)
		code, body := s.do(t, "POST", "/api/workflows/local/approve/run", `{"inputs":{}}`)
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
		pending := s.pending(t, id)
		if pending["tool"] != "Bash" || pending["summary"] != "touch marker" || pending["variant"] != "destructive" {
			t.Errorf("pending %v", pending)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the held call ran before it was approved")
		}
		code, body = s.do(t, "POST", fmt.Sprintf("/api/executions/%s/approvals/%s", id, pending["id"]), `{"decision":"`+tc.decision+`"}`)
		if code != 200 {
			t.Fatalf("decide: %d %s", code, body)
		}
		code, body = s.do(t, "POST", fmt.Sprintf("/api/executions/%s/approvals/%s", id, pending["id"]), `{"decision":"approve"}`)
		if code != 409 && code != 404 {
			t.Errorf("a second decision: %d %s, want 409 (or 404 once the holder cleaned up)", code, body)
		}
		s.waitEnded(t, id)
		if _, err := os.Stat(marker); (err == nil) != tc.ran {
			t.Errorf("%s: marker exists = %v", tc.decision, err == nil)
		}
		rec := bashRecord(t, root, id)
		if got := approval(rec); got != tc.decision+"/api" || rec["outcome"] != tc.outcome {
			t.Errorf("%s: record approval %s outcome %v: %v", tc.decision, got, rec["outcome"], rec)
		}
	}
}

// A headless `awf run` (stdin not a terminal, nobody watching) refuses the held call once
// approval_timeout passes, and records deny by timeout.
func TestApprovalTimeoutHeadless(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", toucher(t))
	t.Setenv("OPENAI_MODEL", "toucher")
	root := project(t, map[string]string{"approve": fmt.Sprintf(approveFlow, "2s")})
	cmd := exec.Command(bins.AWF, "run", "approve")
	cmd.Dir, cmd.Env = root, env(t)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("awf run: %v\n%s", err, out)
	}
	if el := time.Since(start); el < 2*time.Second {
		t.Errorf("the run took %v: it did not wait for the 2s approval_timeout", el)
	}
	if _, err := os.Stat(filepath.Join(root, "marker")); err == nil {
		t.Error("the call ran without approval")
	}
	ents, _ := os.ReadDir(filepath.Join(root, ".awf", "runs"))
	if len(ents) != 1 {
		t.Fatalf("runs: %v", ents)
	}
	rec := bashRecord(t, root, ents[0].Name())
	if got := approval(rec); got != "deny/timeout" || rec["outcome"] != "refused" || rec["code"] != "EXECUTION.TOOL.APPROVAL_TIMEOUT" {
		t.Errorf("record: approval %s, %v", got, rec)
	}
}

// pending waits for run id's one held call and returns it.
func (s *server) pending(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		code, body := s.do(t, "GET", "/api/executions/"+id+"/approvals", "")
		if code != 200 {
			t.Fatalf("approvals: %d %s", code, body)
		}
		var list struct {
			Body struct {
				Approvals []map[string]any `json:"approvals"`
			} `json:"body"`
		}
		decode(t, body, &list)
		if len(list.Body.Approvals) == 1 {
			return list.Body.Approvals[0]
		}
		if st := s.status(t, id); st != "running" && st != "pending" {
			t.Fatalf("run %s is %s with no call held: %v", id, st, s.execution(t, id))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no call was held for approval")
	return nil
}

// waitEnded waits for run id to end.
func (s *server) waitEnded(t *testing.T, id string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if st := s.status(t, id); st != "running" && st != "pending" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("run %s did not end", id)
}
