package cli_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const childYAML = `name: child
inputs:
  - name: message
    type: string
    required: true
  - name: count
    type: integer
    default: 1
outputs:
  - name: result
    from: states.process.Output
states:
  initial: process
  process:
    type: step
    command: 'echo "child got {{.inputs.message}} x{{.inputs.count}}"'
    on_success: tail
    on_failure: error
  tail:
    type: step
    command: echo tail
    on_success: done
  done:
    type: terminal
    status: success
  error:
    type: terminal
    status: failure
`

const parentYAML = `name: parent
inputs:
  - name: msg
    type: string
    required: true
states:
  initial: call
  call:
    type: call_workflow
    workflow: child
    inputs:
      message: "{{.inputs.msg}}"
      count: 3
    outputs:
      result: child_result
    on_success: show
    on_failure: failed
  show:
    type: step
    command: 'echo "result=[{{.states.call.Response.child_result}}] output=[{{.states.call.Output}}]"'
    on_success: done
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`

// TestCallWorkflowThroughTheBinary runs a caller and its callee: the callee's steps are shown
// nested under the call, its declared output comes back under the caller's name, and a value
// with shell syntax in it reaches the callee as data.
func TestCallWorkflowThroughTheBinary(t *testing.T) {
	dir := project(t, map[string]string{"parent.yaml": parentYAML, "child.yaml": childYAML})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "parent", "--input", "msg=hi $(touch pwned)")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"▶ call (call_workflow)", "✓ call/process success", "✓ call/tail success", "✓ call success",
		"result=[child got hi $(touch pwned) x3] output=[tail]"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Index(r.stdout, "call/process") > strings.Index(r.stdout, "✓ call success") {
		t.Errorf("the callee's steps must come before the call finishes:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("an input value ran as shell code")
	}
	// The callee's failure is the call's: on_failure is followed.
	r = awf(t, dir, env, "run", "parent", "--input", "msg=x", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"child_result": "child got x x3"`) {
		t.Fatalf("json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestCallProblemsAtValidate: a cycle is refused with the chain named and the position of the
// `workflow:` value, a missing callee gets a did-you-mean, and an unknown input is named.
func TestCallProblemsAtValidate(t *testing.T) {
	a := strings.Replace(strings.Replace(parentYAML, "name: parent", "name: a", 1), "workflow: child", "workflow: b", 1)
	b := strings.Replace(strings.Replace(parentYAML, "name: parent", "name: b", 1), "workflow: child", "workflow: a", 1)
	a = strings.Replace(a, "message: ", "msg: ", 1)
	b = strings.Replace(b, "message: ", "msg: ", 1)
	a = strings.Replace(a, "result: child_result", "call: child_result", 1)
	b = strings.Replace(b, "result: child_result", "call: child_result", 1)
	bad := strings.Replace(strings.Replace(parentYAML, "workflow: child", "workflow: chlid", 1), "name: parent", "name: bad", 1)
	typo := strings.Replace(strings.Replace(parentYAML, "count: 3", "cuont: 3", 1), "name: parent", "name: typo", 1)
	dir := project(t, map[string]string{"a.yaml": a, "b.yaml": b, "child.yaml": childYAML, "bad.yaml": bad, "typo.yaml": typo})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	tests := []struct {
		wf    string
		wants []string
	}{
		{"a", []string{"a.yaml:10:15: error:", "calls workflows in a circle: a → b → a", "[USER.CALL.CYCLE]"}},
		{"bad", []string{"bad.yaml:10:15: error:", `calls workflow "chlid"`, "[USER.CALL.UNKNOWN_WORKFLOW]", "did you mean 'child'?"}},
		{"typo", []string{"typo.yaml:13:7: error:", `passes input "cuont"`, "[USER.CALL.UNKNOWN_INPUT]", "did you mean 'count'?"}},
	}
	for _, tc := range tests {
		for _, cmd := range []string{"validate", "run"} {
			r := awf(t, dir, env, cmd, tc.wf)
			if r.code != 1 {
				t.Errorf("%s %s: exit %d\n%s%s", cmd, tc.wf, r.code, r.stdout, r.stderr)
			}
			for _, w := range tc.wants {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%s %s: stderr lacks %q:\n%s", cmd, tc.wf, w, r.stderr)
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".awf", "runs")); err == nil {
		t.Error("a refused workflow must not start a run")
	}
}

// TestCallDepthLimit: a chain of eleven nested calls is refused before anything runs; ten run.
func TestCallDepthLimit(t *testing.T) {
	files := map[string]string{}
	link := func(i, next int) string {
		return fmt.Sprintf("name: w%d\nstates:\n  initial: down\n  down:\n    type: call_workflow\n    workflow: w%d\n    on_success: done\n  done:\n    type: terminal\n", i, next)
	}
	for i := 0; i < 11; i++ {
		files[fmt.Sprintf("w%d.yaml", i)] = link(i, i+1)
	}
	files["w11.yaml"] = "name: w11\nstates:\n  initial: leaf\n  leaf:\n    type: step\n    command: echo leaf\n    on_success: done\n  done:\n    type: terminal\n"
	dir := project(t, files)
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "validate", "w0")
	if r.code != 1 || !strings.Contains(r.stderr, "a chain of 11 nested calls (w0 → w1 → w2") || !strings.Contains(r.stderr, "USER.CALL.TOO_DEEP") {
		t.Fatalf("11 levels: exit %d\n%s", r.code, r.stderr)
	}
	r = awf(t, dir, env, "run", "w1")
	if r.code != 0 || !strings.Contains(r.stdout, "down/down/down/down/down/down/down/down/down/down/leaf success") {
		t.Fatalf("10 levels: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

const httpYAML = `name: fetch
inputs:
  - name: base
    type: string
    required: true
states:
  initial: get
  get:
    type: operation
    operation: http.request
    inputs:
      method: POST
      url: "{{raw .inputs.base}}/items?q=$(id)"   # a trusted base URL: raw lets it name the host
      headers:
        X-Token: "t-{{.workflow.name}}"
      body: '{"n": "{{.inputs.base}}"}'
    transitions:
      - when: states.get.Response.status_code == 201
        goto: created
    on_success: other
    on_failure: failed
  created:
    type: step
    command: 'echo "created {{.states.get.Response.body}} {{index .states.get.Response.headers "X-Reply"}}"'
    on_success: retryable
  retryable:
    type: operation
    operation: http.request
    inputs:
      method: GET
      url: "{{raw .inputs.base}}/busy"
      retryable_status_codes: [503]
    on_success: done
    on_failure: busy
  busy:
    type: step
    command: 'echo "busy {{.states.retryable.Response.status_code}} {{.states.retryable.ExitCode}}"'
    on_success: done
  other:
    type: terminal
    status: failure
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`

// TestHTTPOperationThroughTheBinary sends real requests to a local server: the URL and body
// from inputs arrive as data, the response is read through Response in a `when` and in
// templates, and a retryable status follows on_failure.
func TestHTTPOperationThroughTheBinary(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Token")+" "+string(b))
		if r.URL.Path == "/busy" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("X-Reply", "yes")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "ok-body")
	}))
	defer srv.Close()
	dir := project(t, map[string]string{"fetch.yaml": httpYAML})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	if r := awf(t, dir, env, "validate", "fetch"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := awf(t, dir, env, "run", "fetch", "--input", "base="+srv.URL)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"created ok-body yes", "busy 503 1"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if len(seen) != 2 || seen[0] != `POST /items?q=$(id) t-fetch {"n": "`+srv.URL+`"}` || !strings.HasPrefix(seen[1], "GET /busy") {
		t.Errorf("server saw %q", seen)
	}
	if strings.Contains(r.stdout+r.stderr, "t-fetch") {
		t.Error("a request header reached the output")
	}
}

const pluginOpYAML = `name: plugop
states:
  initial: shout
  shout:
    type: operation
    operation: echo.echo
    inputs:
      text: "{{.workflow.name}} $(id)"
      upper: true
    on_success: show
  show:
    type: step
    command: 'echo "got {{.states.shout.Output}}"'
    on_success: done
  done:
    type: terminal
`

// TestPluginOperationThroughTheBinary runs an operation of the example echo plugin, and refuses
// an operation it does not list at validate time.
func TestPluginOperationThroughTheBinary(t *testing.T) {
	typo := strings.Replace(strings.Replace(pluginOpYAML, "echo.echo", "echo.ecko", 1), "name: plugop", "name: typo", 1)
	dir := project(t, map[string]string{"plugop.yaml": pluginOpYAML, "typo.yaml": typo})
	body := fmt.Sprintf("plugins:\n  echo:\n    command: %s/echo\n", pluginDir)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "plugop")
	if r.code != 0 || !strings.Contains(r.stdout, "got PLUGOP $(ID)") {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, "validate", "typo")
	if r.code != 1 || !strings.Contains(r.stderr, "typo.yaml:6:16: error:") || !strings.Contains(r.stderr, "USER.OPERATION.UNKNOWN") || !strings.Contains(r.stderr, "did you mean 'echo.echo'?") {
		t.Fatalf("validate typo: exit %d\n%s", r.code, r.stderr)
	}
}
