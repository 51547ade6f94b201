package serve_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The reference awf's documented answers (its HTTP API guide; docs/guide/serve.md sums them
// up), as a client written against them decodes them; has checks the fields each documents.
type (
	refWorkflows struct {
		Body struct {
			Workflows []struct {
				Name, Scope, Workflow, Version, Description string
			} `json:"workflows"`
		} `json:"body"`
	}
	refExecution struct {
		ExecutionID  string    `json:"execution_id"`
		WorkflowName string    `json:"workflow_name"`
		Status       string    `json:"status"`
		CurrentStep  string    `json:"current_step"`
		StartedAt    time.Time `json:"started_at"`
		UpdatedAt    time.Time `json:"updated_at"`
	}
	refProblem struct {
		Status int    `json:"status"`
		Title  string `json:"title"`
		Detail string `json:"detail"`
	}
)

// has fails unless the JSON object at path in data holds every field.
func has(t *testing.T, data []byte, path []string, fields ...string) {
	t.Helper()
	var v any
	decode(t, data, &v)
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			if len(x) == 0 {
				t.Fatalf("empty list at %s in %s", p, data)
			}
			v = x[0]
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("no object at %v in %s", path, data)
	}
	for _, f := range fields {
		if _, ok := obj[f]; !ok {
			t.Errorf("field %q missing at %v in %s", f, path, data)
		}
	}
}

// A client written against the reference's documented responses works unchanged: every field
// it documents is there with its type, errors are problem details.
func TestReferenceClient(t *testing.T) {
	s := start(t, project(t, map[string]string{"flow": flow}))
	code, body := s.do(t, "GET", "/api/workflows", "")
	var wl refWorkflows
	decode(t, body, &wl)
	if code != 200 || len(wl.Body.Workflows) != 1 || wl.Body.Workflows[0].Scope != "local" || wl.Body.Workflows[0].Workflow != "flow" {
		t.Fatalf("workflows: %d %s", code, body)
	}
	has(t, body, []string{"body", "workflows", "0"}, "name", "scope", "workflow", "version", "description")
	code, body = s.do(t, "GET", "/api/workflows/local/flow", "")
	has(t, body, []string{"body"}, "name", "version", "description", "states")
	if code != 200 {
		t.Fatalf("workflow: %d", code)
	}
	code, body = s.do(t, "POST", "/api/workflows/local/flow/validate", "")
	if code != 200 || !bytes.Contains(body, []byte(`"errors":[]`)) {
		t.Fatalf("validate: %d %s", code, body)
	}
	id := runFlow(t, s, `{"who":"ref"}`)
	s.events(t, id)
	code, body = s.do(t, "GET", "/api/executions", "")
	has(t, body, []string{"body", "executions", "0"}, "execution_id", "workflow_name", "status", "current_step", "started_at", "updated_at")
	var one struct{ Body refExecution }
	_, b1 := s.do(t, "GET", "/api/executions/"+id, "")
	decode(t, b1, &one)
	if code != 200 || one.Body.ExecutionID != id || one.Body.WorkflowName != "flow" || one.Body.Status != "completed" || one.Body.StartedAt.IsZero() || one.Body.UpdatedAt.Before(one.Body.StartedAt) {
		t.Fatalf("execution: %s", b1)
	}
	code, body = s.do(t, "GET", "/api/history?workflow=flow&status=success&limit=5", "")
	if code != 200 {
		t.Fatalf("history: %d %s", code, body)
	}
	has(t, body, []string{"body", "entries", "0"}, "id", "workflow_name", "status", "started_at", "completed_at", "duration_ms")
	code, body = s.do(t, "GET", "/api/history/stats?workflow=flow", "")
	if code != 200 {
		t.Fatalf("history stats: %d %s", code, body)
	}
	has(t, body, []string{"body"}, "TotalExecutions", "SuccessCount", "FailedCount", "CancelledCount", "AvgDurationMs")
	for path, want := range map[string]int{"/api/executions/nope-1": 404, "/api/workflows/local/nope": 404, "/api/workflows/local/..%2f..%2fetc": 404} {
		code, body = s.do(t, "GET", path, "")
		var p refProblem
		decode(t, body, &p)
		if code != want || p.Status != want || p.Title != "Not Found" || p.Detail == "" {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	code, body = s.do(t, "POST", "/api/workflows/local/flow/run", `{"inputs":{}}`)
	if code != 422 || !strings.Contains(string(body), "who") {
		t.Errorf("run without a required input: %d %s", code, body)
	}
}

// The OpenAPI document parses as 3.1 and describes every documented path.
func TestOpenAPIDocument(t *testing.T) {
	s := start(t, project(t, nil))
	code, body := s.do(t, "GET", "/openapi.json", "")
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	decode(t, body, &doc)
	if code != 200 || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi: %d %s", code, doc.OpenAPI)
	}
	for p, m := range map[string]string{"/api/workflows": "get", "/api/workflows/local/{name}/run": "post", "/api/executions/{id}": "delete",
		"/api/executions/{id}/resume": "post", "/api/executions/{id}/events": "get", "/api/history": "get"} {
		if doc.Paths[p][m] == nil {
			t.Errorf("%s %s missing from the document", m, p)
		}
	}
}

// Without a token a non-loopback listener refuses to start; with one, a request without it
// (or with a wrong one) gets 401 and nothing about the project.
func TestToken(t *testing.T) {
	root := project(t, map[string]string{"flow": flow})
	cmd := exec.Command(bins.AWF, "serve", "--host", "0.0.0.0", "--port", "0")
	cmd.Dir, cmd.Env = root, env(t)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--token-file") {
		t.Fatalf("non-loopback without a token: %v %s", err, out)
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	token := "s3cret-token-of-the-test-0123456789"
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--token-file", tokenFile)
	for _, tok := range []string{"", "wrong-token-wrong-token-wrong-tok"} {
		s.token = tok
		for _, p := range []string{"/api/workflows", "/openapi.json", "/", "/api/executions/x/events"} {
			code, body := s.do(t, "GET", p, "")
			if code != 401 || strings.Contains(string(body), "flow") {
				t.Errorf("token %q %s: %d %s", tok, p, code, body)
			}
			var pr refProblem
			if json.Unmarshal(body, &pr) != nil || pr.Status != 401 {
				t.Errorf("401 is not a problem: %s", body)
			}
		}
	}
	s.token = token
	if code, body := s.do(t, "GET", "/api/workflows", ""); code != 200 || !strings.Contains(string(body), "flow") {
		t.Errorf("with the token: %d %s", code, body)
	}
}
