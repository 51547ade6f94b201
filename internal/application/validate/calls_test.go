package validate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// srcFake serves workflows by name, each from "<name>.yaml"; loads counts the loads.
type srcFake struct {
	wfs   map[string]*workflow.Workflow
	diags map[string]fault.Diagnostics
	loads int
}

func (s *srcFake) Callee(_, name string) (*workflow.Workflow, fault.Diagnostics, error) {
	s.loads++
	wf, ok := s.wfs[name]
	if !ok {
		return nil, nil, fault.New(fault.UserWorkflowNotFound, "workflow %q not found", name).WithHint("did you mean 'child'?")
	}
	return wf, s.diags[name], nil
}

// cpos is a position in file f at line l (column 9 for values, 7 for keys).
func cpos(f string, l, c int) fault.Position { return fault.Position{File: f, Line: l, Column: c} }

// caller builds a workflow named name whose state "call" (line 10) calls target with inputs and
// outputs; each input and output key is written on its own line from 12 on.
func caller(name, target string, inputs []string, outputs map[string]string) *workflow.Workflow {
	file := name + ".yaml"
	spec := &workflow.CallSpec{Workflow: target, Inputs: map[string]string{}, Outputs: outputs}
	st := &workflow.State{Name: "call", Type: workflow.StateCallWorkflow, Spec: spec, Pos: cpos(file, 10, 3),
		KeyPos:   map[string]fault.Position{"workflow": cpos(file, 11, 5), "inputs": cpos(file, 12, 5)},
		ValuePos: map[string]fault.Position{"workflow": cpos(file, 11, 15)}}
	for i, k := range inputs {
		spec.Inputs[k] = "v"
		spec.InputOrder = append(spec.InputOrder, k)
		st.KeyPos["inputs."+k] = cpos(file, 13+i, 7)
	}
	for k := range outputs {
		spec.OutputOrder = append(spec.OutputOrder, k)
		st.KeyPos["outputs."+k] = cpos(file, 30, 7)
	}
	return &workflow.Workflow{Name: name, File: file, Initial: "call", Order: []string{"call"}, States: map[string]*workflow.State{"call": st},
		Inputs: []workflow.Input{{Name: "msg", Type: workflow.InputString, Required: true}, {Name: "opt", Type: workflow.InputString}, {Name: "def", Type: workflow.InputString, Required: true, Default: "d"}}}
}

func leaf(name string) *workflow.Workflow {
	return &workflow.Workflow{Name: name, File: name + ".yaml", Order: []string{"work"}, States: map[string]*workflow.State{"work": {Name: "work", Type: workflow.StateCommand}},
		Inputs:  []workflow.Input{{Name: "msg", Type: workflow.InputString, Required: true}},
		Outputs: []workflow.Output{{Name: "result", From: "states.work.Output"}}}
}

type wantDiag struct {
	code string
	pos  string
	msg  string
}

func TestCallCheck(t *testing.T) {
	tests := []struct {
		name  string
		root  *workflow.Workflow
		wfs   map[string]*workflow.Workflow
		diags map[string]fault.Diagnostics
		want  []wantDiag
	}{
		{"a valid call", caller("a", "child", []string{"msg"}, map[string]string{"result": "r", "work": "w"}), map[string]*workflow.Workflow{"child": leaf("child")}, nil, nil},
		{"an unknown workflow", caller("a", "chlid", nil, nil), nil, nil,
			[]wantDiag{{fault.UserCallUnknownWorkflow, "a.yaml:11:15", `state "call" calls workflow "chlid", which cannot be loaded: workflow "chlid" not found`}}},
		{"unknown and missing inputs", caller("a", "child", []string{"mgs"}, nil), map[string]*workflow.Workflow{"child": leaf("child")}, nil,
			[]wantDiag{{fault.UserCallUnknownInput, "a.yaml:13:7", `passes input "mgs", which workflow "child" does not declare`},
				{fault.UserCallMissingInput, "a.yaml:12:5", `does not pass required input "msg" of workflow "child"`}}},
		{"an unknown output", caller("a", "child", []string{"msg"}, map[string]string{"r": "result"}), map[string]*workflow.Workflow{"child": leaf("child")}, nil,
			[]wantDiag{{fault.UserCallUnknownOutput, "a.yaml:30:7", `outputs.r of state "call" names neither an output nor a state of workflow "child"`}}},
		{"a self call", caller("a", "a", []string{"msg"}, nil), map[string]*workflow.Workflow{"a": caller("a", "a", []string{"msg"}, nil)}, nil,
			[]wantDiag{{fault.UserCallCycle, "a.yaml:11:15", `state "call" calls workflows in a circle: a → a`}}},
		{"a cycle through another workflow", caller("a", "b", []string{"msg"}, nil),
			map[string]*workflow.Workflow{"b": caller("b", "a", []string{"msg"}, nil), "a": caller("a", "b", []string{"msg"}, nil)}, nil,
			[]wantDiag{{fault.UserCallCycle, "a.yaml:11:15", `a → b → a (closed by state "call" at b.yaml:11:15)`}}},
		{"a cycle further down", caller("a", "b", []string{"msg"}, nil),
			map[string]*workflow.Workflow{"b": caller("b", "c", []string{"msg"}, nil), "c": caller("c", "b", []string{"msg"}, nil)}, nil,
			[]wantDiag{{fault.UserCallCycle, "a.yaml:11:15", `a → b → c → b (closed by state "call" at c.yaml:11:15)`}}},
		{"a callee with errors", caller("a", "child", []string{"msg"}, nil), map[string]*workflow.Workflow{"child": leaf("child")},
			map[string]fault.Diagnostics{"child": {{Code: fault.UserWorkflowNoExit, Message: "loops", Severity: fault.SeverityError, Position: cpos("child.yaml", 4, 3)}}},
			[]wantDiag{{fault.UserCallInvalidCallee, "child.yaml:4:3", "in called workflow child.yaml: loops [USER.WORKFLOW.NO_EXIT]"}}},
		{"a chain too deep", caller("w0", "w1", []string{"msg"}, nil), deepChain(workflow.MaxCallDepth + 1), nil,
			[]wantDiag{{fault.UserCallTooDeep, "w0.yaml:11:15", "a chain of 11 nested calls (w0 → w1"}}},
		{"a chain at the limit", caller("w0", "w1", []string{"msg"}, nil), deepChain(workflow.MaxCallDepth), nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &srcFake{wfs: tc.wfs, diags: tc.diags}
			ds := CallCheck(src)(context.Background(), tc.root)
			if len(ds) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%v", len(ds), len(tc.want), ds)
			}
			for i, w := range tc.want {
				d := ds[i]
				if d.Code != w.code || d.Position.String() != w.pos || !strings.Contains(d.Message, w.msg) {
					t.Errorf("diagnostic %d = %s\nwant %s at %s with %q", i, d, w.code, w.pos, w.msg)
				}
			}
		})
	}
}

// deepChain returns w1 … wn calling one another, wn a leaf: with w0 calling w1, n nested calls.
func deepChain(n int) map[string]*workflow.Workflow {
	out := map[string]*workflow.Workflow{}
	for i := 1; i < n; i++ {
		out[wn(i)] = caller(wn(i), wn(i+1), []string{"msg"}, nil)
	}
	out[wn(n)] = leaf(wn(n))
	return out
}

func wn(i int) string {
	return "w" + strings.TrimLeft(string(rune('0'+i/10))+string(rune('0'+i%10)), "0")
}

func TestCallCheckLoadsEachCalleeOnce(t *testing.T) {
	root := caller("a", "child", []string{"msg"}, nil)
	second := *root.States["call"]
	second.Name = "again"
	root.States["again"] = &second
	root.Order = append(root.Order, "again")
	src := &srcFake{wfs: map[string]*workflow.Workflow{"child": leaf("child")},
		diags: map[string]fault.Diagnostics{"child": {{Code: fault.UserWorkflowNoExit, Message: "loops", Severity: fault.SeverityError}}}}
	ds := CallCheck(src)(context.Background(), root)
	if src.loads != 1 || len(ds) != 1 {
		t.Fatalf("loads %d, diagnostics %v", src.loads, ds)
	}
}

// errSource fails every lookup with a plain error.
type errSource struct{}

func (errSource) Callee(string, string) (*workflow.Workflow, fault.Diagnostics, error) {
	return nil, nil, errors.New("disk on fire")
}

func TestCallCheckHints(t *testing.T) {
	ds := CallCheck(errSource{})(context.Background(), caller("a", "child", nil, nil))
	if len(ds) != 1 || ds[0].Hint != "create it in .awf/workflows, or fix the name" || !strings.Contains(ds[0].Message, "disk on fire") {
		t.Fatalf("%v", ds)
	}
	bare := leaf("child")
	bare.Inputs = nil
	ds = CallCheck(&srcFake{wfs: map[string]*workflow.Workflow{"child": bare}})(context.Background(), caller("a", "child", []string{"msg"}, nil))
	if len(ds) != 1 || ds[0].Hint != "workflow child declares no inputs" {
		t.Fatalf("%v", ds)
	}
}

func TestCallCheckRunsTheOtherChecksOnCallees(t *testing.T) {
	var seen []string
	other := func(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
		seen = append(seen, wf.Name)
		var ds fault.Diagnostics
		ds.Errorf(cpos(wf.File, 2, 1), fault.UserExprInvalid, "", "bad when")
		return ds
	}
	ds := CallCheck(&srcFake{wfs: map[string]*workflow.Workflow{"child": leaf("child")}}, other)(context.Background(), caller("a", "child", []string{"msg"}, nil))
	if strings.Join(seen, ",") != "child" || len(ds) != 1 || ds[0].Code != fault.UserCallInvalidCallee || ds[0].Message != "in called workflow child.yaml: bad when [USER.EXPR.INVALID]" {
		t.Fatalf("seen %v, diagnostics %v", seen, ds)
	}
}
