package yamlrepo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestDecodeFlow reads each key of the three control-flow kinds, with the positions validation
// points at.
func TestDecodeFlow(t *testing.T) {
	src := `name: x
inputs: [{name: x}, {name: n}]
states:
  initial: each
  each:
    type: for_each
    items: [a, 2, {name: b}, "{{.inputs.x}}"]
    body: [show, again]
    max_iterations: 5
    break_when: loop.Index > 1
    on_complete: par
  show: {type: command, command: echo}
  again:
    type: while
    while: 'true'
    body: [show2]
    max_iterations: "{{.inputs.n}} * 2"
  show2: {type: command, command: echo}
  strs:
    type: for_each
    items: '["a"]'
    body: [s3]
    on_success: par
  s3: {type: command, command: echo}
  par:
    type: parallel
    parallel: [p1, p2]
    strategy: any_succeed
    max_concurrent: 2
    on_success: done
  p1: {type: command, command: echo}
  p2: {type: command, command: echo}
  done: {type: terminal}
`
	w, ds := Parse("x.yaml", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("diagnostics: %v", ds)
	}
	fe := w.States["each"].ForEach()
	want := &workflow.ForEachSpec{IsList: true, ItemList: []any{"a", int64(2), map[string]any{"name": "b"}, "{{.inputs.x}}"},
		LoopSpec: workflow.LoopSpec{Body: []string{"show", "again"}, MaxIterations: 5, BreakWhen: "loop.Index > 1", OnComplete: "par"}}
	if !reflect.DeepEqual(fe, want) {
		t.Errorf("for_each spec\n got %#v\nwant %#v", fe, want)
	}
	s := w.States["each"]
	if s.ValueAt("body[1]") != (fault.Position{File: "x.yaml", Line: 8, Column: 18}) || s.ValueAt("items[3]").Line != 7 || s.ValueAt("items[3]").Column != 30 {
		t.Errorf("positions: body[1] %v items[3] %v", s.ValueAt("body[1]"), s.ValueAt("items[3]"))
	}
	wh := w.States["again"].While()
	if wh.While != "true" || wh.MaxIterationsExpr != "{{.inputs.n}} * 2" || wh.MaxIterations != 0 || !reflect.DeepEqual(wh.Body, []string{"show2"}) {
		t.Errorf("while spec %#v", wh)
	}
	if st := w.States["strs"].ForEach(); st.IsList || st.Items != `["a"]` {
		t.Errorf("items as text %#v", st)
	}
	p := w.States["par"].Parallel()
	if !reflect.DeepEqual(p, &workflow.ParallelSpec{Branches: []string{"p1", "p2"}, Strategy: workflow.AnySucceed, MaxConcurrent: 2}) {
		t.Errorf("parallel spec %#v", p)
	}
}

// TestDecodeFlowErrors checks values of the wrong kind, each reported where it is written.
func TestDecodeFlowErrors(t *testing.T) {
	src := `name: x
states:
  initial: each
  each:
    type: for_each
    items: {a: 1}
    body: show
    max_iterations: [1]
    on_complete: done
  show: {type: command, command: echo}
  par:
    type: parallel
    parallel: [show, [x]]
    max_concurrent: two
    strategy: fast
    on_success: done
  done: {type: terminal}
`
	_, ds := Parse("x.yaml", []byte(src))
	if !strings.Contains(ds[0].Message, "items must be a list, or text giving a JSON list, got a mapping") {
		t.Errorf("items message %q", ds[0].Message)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Code+"@"+itoa(d.Line)+":"+itoa(d.Column))
	}
	want := []string{"USER.WORKFLOW.INVALID_VALUE@6:12", "USER.WORKFLOW.INVALID_VALUE@7:11", "USER.WORKFLOW.INVALID_VALUE@8:21",
		"USER.WORKFLOW.UNREACHABLE_STATE@10:3", "USER.WORKFLOW.UNREACHABLE_STATE@11:3", "USER.WORKFLOW.INVALID_VALUE@13:22", "USER.WORKFLOW.INVALID_VALUE@14:21", "USER.WORKFLOW.INVALID_STRATEGY@15:15"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("diagnostics\n got %v\nwant %v\n%v", got, want, ds)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
