package yamlrepo

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

const callerYAML = `name: caller
outputs:
  - name: out
    from: states.call.Output
    description: what the call gave
states:
  initial: call
  call:
    type: call_workflow
    workflow: child
    inputs:
      message: "{{.workflow.name}}"
      count: 3
    outputs:
      result: got
    timeout: 30
    on_success: op
  op:
    type: operation
    operation: http.request
    inputs:
      method: GET
      url: "https://x/{{.workflow.id}}"
      headers: {A: b}
      retryable_status_codes: [429, 503]
      timeout: 5
    on_success: done
  done:
    type: terminal
`

func TestDecodeCallAndOperation(t *testing.T) {
	w, ds := Parse("c.yaml", []byte(callerYAML))
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	call := w.States["call"].Call()
	if call == nil || call.Workflow != "child" || !reflect.DeepEqual(call.Inputs, map[string]string{"message": "{{.workflow.name}}", "count": "3"}) ||
		!reflect.DeepEqual(call.InputOrder, []string{"message", "count"}) || !reflect.DeepEqual(call.Outputs, map[string]string{"result": "got"}) {
		t.Fatalf("call spec %+v", call)
	}
	if w.States["call"].Timeout.Seconds() != 30 {
		t.Errorf("timeout %v", w.States["call"].Timeout)
	}
	if p := w.States["call"].KeyAt("inputs.count"); p.Line != 13 || p.Column != 7 {
		t.Errorf("inputs.count at %v", p)
	}
	op := w.States["op"].Operation()
	want := map[string]any{"method": "GET", "url": "https://x/{{.workflow.id}}", "headers": map[string]any{"A": "b"}, "retryable_status_codes": []any{int64(429), int64(503)}, "timeout": int64(5)}
	if op == nil || op.Operation != "http.request" || !reflect.DeepEqual(op.Inputs, want) {
		t.Fatalf("operation spec %#v", op)
	}
	if p := w.States["op"].ValueAt("inputs.url"); p.Line != 23 || p.Column != 12 {
		t.Errorf("inputs.url value at %v", p)
	}
	if len(w.Outputs) != 1 || w.Outputs[0] != (workflow.Output{Name: "out", From: "states.call.Output", Description: "what the call gave", Pos: fault.Position{File: "c.yaml", Line: 3, Column: 5}}) {
		t.Errorf("outputs %+v", w.Outputs)
	}
}

func TestDecodeCallMistakes(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"nested call_workflow block", "  x:\n    type: call_workflow\n    call_workflow: {workflow: c}\n    on_success: done\n",
			"USER.WORKFLOW.UNKNOWN_KEY@6:5 unknown key \"call_workflow\""},
		{"inputs not a mapping", "  x:\n    type: operation\n    operation: http.request\n    inputs: [a]\n    on_success: done\n",
			"USER.WORKFLOW.INVALID_VALUE@7:13 inputs must be a mapping"},
		{"call input a list", "  x:\n    type: call_workflow\n    workflow: c\n    inputs: {a: [1]}\n    on_success: done\n",
			"USER.WORKFLOW.INVALID_VALUE@7:17 inputs.a must be text"},
		{"unknown key in an output", "  x:\n    type: command\n    command: a\n    on_success: done\n",
			"USER.WORKFLOW.UNKNOWN_KEY@12:5 unknown key \"form\" in an output"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse("w.yaml", []byte("name: w\nstates:\n  initial: x\n"+tc.yaml+"  done:\n    type: terminal\noutputs:\n  - name: o\n    form: states.x.Output\n    from: states.x.Output\n"))
			var got []string
			for _, d := range ds {
				got = append(got, d.Code+"@"+strings.TrimPrefix(d.Position.String(), "w.yaml:")+" "+d.Message)
			}
			if !strings.Contains(strings.Join(got, "\n"), tc.want) {
				t.Fatalf("diagnostics\n%s\nwant one starting %q", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

func TestCalleeResolution(t *testing.T) {
	root := t.TempDir()
	write := func(rel, name string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "name: " + name + "\nstates:\n  initial: done\n  done:\n    type: terminal\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".awf/workflows/child.yaml", "project-child")
	write(".awf/workflows/only.yml", "only")
	write("examples/child.yaml", "sibling-child")
	write("examples/sub/deep.yaml", "deep")
	r := Repository{Root: root}
	from := filepath.Join(root, "examples", "caller.yaml")
	tests := []struct{ from, name, want string }{
		{from, "child", "sibling-child"},
		{filepath.Join(root, ".awf/workflows/x.yaml"), "child", "project-child"},
		{from, "only", "only"},
		{from, "sub/deep.yaml", "deep"},
		{from, "examples/sub/deep.yaml", "deep"},
		{"", "child", "project-child"},
	}
	for _, tc := range tests {
		wf, _, err := r.Callee(tc.from, tc.name)
		if err != nil || wf.Name != tc.want {
			t.Errorf("Callee(%s, %s) = %v, %v; want %s", tc.from, tc.name, wf, err, tc.want)
		}
	}
	_, _, err := r.Callee(from, "chlid")
	if fault.CodeOf(err) != fault.UserWorkflowNotFound || !strings.Contains(err.Error(), "did you mean 'child'?") {
		t.Fatalf("missing: %v", err)
	}
	_, _, err = r.Callee(from, "zzz")
	var fe *fault.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Hint, "available workflows: child, only") {
		t.Fatalf("hint: %v", err)
	}
	if _, _, err := r.Callee(from, " "); fault.CodeOf(err) != fault.UserWorkflowNotFound {
		t.Fatalf("empty name: %v", err)
	}
	if _, _, err := (Repository{Root: t.TempDir()}).Callee("", "x"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("empty project: %v", err)
	}
}
