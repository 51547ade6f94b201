package validate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// opRegistry declares echo (one operation with a closed schema), off (disabled) and broken
// (cannot start).
type opRegistry struct{ plugErr error }

func (r opRegistry) Plugins(context.Context) ([]ports.PluginDecl, error) {
	return []ports.PluginDecl{{Name: "echo"}, {Name: "off", Disabled: true}, {Name: "broken"}, {Name: "open"}}, r.plugErr
}

func (opRegistry) Operations(_ context.Context, name string) ([]ports.PluginOperation, error) {
	switch name {
	case "echo":
		return []ports.PluginOperation{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"Text to return"},"upper":{"type":"boolean"}},"required":["text"],"additionalProperties":false}`)}}, nil
	case "open":
		return []ports.PluginOperation{{Name: "any", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{}}}`)},
			{Name: "also", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{}},"additionalProperties":true}`)}}, nil
	case "broken":
		return nil, fault.New(fault.ExecutionPluginStartFailed, "did not start")
	}
	return nil, nil
}

var httpSpec = []ports.OperationSpec{{Name: "http.request", Inputs: []ports.OperationInput{
	{Name: "url", Required: true, Description: "http:// or https:// URL"}, {Name: "method", Required: true}, {Name: "body"}}}}

func opWorkflow(op string, inputs map[string]any) *workflow.Workflow {
	st := &workflow.State{Name: "op", Type: workflow.StateOperation, Spec: &workflow.OperationSpec{Operation: op, Inputs: inputs}, Pos: cpos("w.yaml", 5, 3),
		KeyPos:   map[string]fault.Position{"inputs": cpos("w.yaml", 7, 5)},
		ValuePos: map[string]fault.Position{"operation": cpos("w.yaml", 6, 16)}}
	for k := range inputs {
		st.KeyPos["inputs."+k] = cpos("w.yaml", 8, 7)
	}
	return &workflow.Workflow{Name: "w", File: "w.yaml", Order: []string{"op"}, States: map[string]*workflow.State{"op": st}}
}

func TestOperationCheck(t *testing.T) {
	tests := []struct {
		name   string
		op     string
		inputs map[string]any
		reg    opRegistry
		want   []wantDiag
	}{
		{"a valid built-in", "http.request", map[string]any{"url": "u", "method": "GET"}, opRegistry{}, nil},
		{"a valid plugin operation", "echo.echo", map[string]any{"text": "t"}, opRegistry{}, nil},
		{"an open schema takes any input", "open.any", map[string]any{"b": 1}, opRegistry{}, nil},
		{"so does one that says so", "open.also", map[string]any{"b": 1}, opRegistry{}, nil},
		{"built-in inputs", "http.request", map[string]any{"url": "u", "bdy": "x"}, opRegistry{},
			[]wantDiag{{fault.UserOperationUnknownInput, "w.yaml:8:7", `takes no input "bdy"`}, {fault.UserOperationMissingInput, "w.yaml:7:5", `needs input "method"`}}},
		{"plugin inputs", "echo.echo", map[string]any{"txt": "t"}, opRegistry{},
			[]wantDiag{{fault.UserOperationUnknownInput, "w.yaml:8:7", `takes no input "txt"`}, {fault.UserOperationMissingInput, "w.yaml:7:5", `needs input "text"`}}},
		{"a value as the url's host", "http.request", map[string]any{"url": "https://{{.inputs.host}}/x/{{.inputs.id}}", "method": "GET"}, opRegistry{},
			[]wantDiag{{fault.UserTemplateURLPlace, "w.yaml:8:7", "column 9 of the url of state \"op\": a value cannot choose the URL's scheme, host or port"}}},
		{"a value as the whole url", "http.request", map[string]any{"url": "{{.inputs.url}}", "method": "GET"}, opRegistry{},
			[]wantDiag{{fault.UserTemplateURLPlace, "w.yaml:8:7", "scheme, host or port"}}},
		{"values in path and query, a raw base", "http.request", map[string]any{"url": "{{raw .inputs.base}}/x/{{.inputs.id}}?q={{.inputs.q}}", "method": "GET"}, opRegistry{}, nil},
		{"a typo in a built-in", "http.requst", nil, opRegistry{}, []wantDiag{{fault.UserOperationUnknown, "w.yaml:6:16", "neither built in nor an operation of a plugin"}}},
		{"no dot", "echo", nil, opRegistry{}, []wantDiag{{fault.UserOperationUnknown, "w.yaml:6:16", `operation "echo" of state "op"`}}},
		{"an operation the plugin does not list", "echo.ecko", nil, opRegistry{}, []wantDiag{{fault.UserOperationUnknown, "w.yaml:6:16", `plugin "echo" does not list operation "ecko"`}}},
		{"a disabled plugin", "off.x", nil, opRegistry{}, []wantDiag{{fault.UserOperationUnknown, "w.yaml:6:16", `plugin "off", which is disabled`}}},
		{"a plugin that cannot start", "broken.x", nil, opRegistry{}, []wantDiag{{fault.UserOperationUnknown, "w.yaml:6:16", "cannot ask plugin \"broken\""}}},
		{"an unreadable plugins.yaml", "echo.echo", nil, opRegistry{plugErr: fault.New(fault.UserPluginsInvalid, "bad")}, []wantDiag{{fault.UserPluginsInvalid, "w.yaml:6:16", "cannot read the plugin declarations"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := OperationCheck(httpSpec, tc.reg)(context.Background(), opWorkflow(tc.op, tc.inputs))
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

func TestOperationHints(t *testing.T) {
	ds := OperationCheck(httpSpec, opRegistry{})(context.Background(), opWorkflow("http.requst", nil))
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Hint, "did you mean 'http.request'?") || !strings.Contains(ds[0].Hint, "echo.echo") || strings.Contains(ds[0].Hint, "off.") {
		t.Fatalf("hint %v", ds)
	}
	ds = OperationCheck(httpSpec, opRegistry{})(context.Background(), opWorkflow("zzzzzz.q", nil))
	if len(ds) != 1 || !strings.Contains(ds[0].Hint, "<plugin>.<operation>") {
		t.Fatalf("hint %v", ds)
	}
	ds = OperationCheck(httpSpec, opRegistry{})(context.Background(), opWorkflow("http.request", map[string]any{"url": "u"}))
	if len(ds) != 1 || ds[0].Hint != "add `method:` under `inputs:`" {
		t.Fatalf("hint %v", ds)
	}
	ds = OperationCheck(httpSpec, opRegistry{})(context.Background(), opWorkflow("http.request", map[string]any{"method": "u"}))
	if len(ds) != 1 || ds[0].Hint != "add `url:` under `inputs:` (http:// or https:// URL)" {
		t.Fatalf("hint %v", ds)
	}
}
