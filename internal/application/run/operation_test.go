package run

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeOps serves one built-in operation, "http.request", recording what it was given.
type fakeOps struct {
	res ports.OperationResult
	err error
	got map[string]any
}

func (f *fakeOps) Specs() []ports.OperationSpec { return []ports.OperationSpec{{Name: "http.request"}} }
func (f *fakeOps) Run(_ context.Context, name string, in map[string]any) (ports.OperationResult, error) {
	f.got = in
	return f.res, f.err
}

// fakePlugins answers plugin operations, recording the call.
type fakePlugins struct {
	res  tool.Result
	err  error
	call string
}

func (f *fakePlugins) Operations(context.Context, string) ([]ports.PluginOperation, error) {
	return nil, nil
}
func (f *fakePlugins) Execute(_ context.Context, plugin, op string, args json.RawMessage) (tool.Result, error) {
	f.call = plugin + "/" + op + " " + string(args)
	return f.res, f.err
}

func opState(name, op string, inputs map[string]any) *workflow.State {
	return &workflow.State{Name: name, Type: workflow.StateOperation, Spec: &workflow.OperationSpec{Operation: op, Inputs: inputs}, OnSuccess: "show", OnFailure: "ko"}
}

func TestOperationBuiltin(t *testing.T) {
	ops := &fakeOps{res: ports.OperationResult{Success: true, Outputs: map[string]any{"status_code": 201, "body": "<b>&"}}}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"show 201 '<b>&'": {Stdout: "ok\n"}}}
	wf := machine("ops", []workflow.Input{{Name: "id", Type: workflow.InputString}},
		opState("op", "http.request", map[string]any{
			"method": "POST", "url": "https://x/{{.inputs.id}}", "timeout": int64(5),
			"headers": map[string]any{"X-Id": "{{.inputs.id}}"}, "retryable_status_codes": []any{int64(503), "{{.inputs.id}}"},
		}),
		cmdState("show", "show {{.states.op.Response.status_code}} {{.states.op.response.body}}", "ok", "ko"))
	res, err := newRun(t, Options{Commands: sh, Operations: ops}).Run(context.Background(), wf, map[string]string{"id": "$(id)"})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	want := map[string]any{"method": "POST", "url": "https://x/$%28id%29", "timeout": int64(5), // escaped for its path segment
		"headers": map[string]any{"X-Id": "$(id)"}, "retryable_status_codes": []any{int64(503), "$(id)"}}
	if !reflect.DeepEqual(ops.got, want) {
		t.Errorf("inputs rendered as data:\n got %#v\nwant %#v", ops.got, want)
	}
	if op := res.Steps[0]; op.Output != `{"body":"<b>&","status_code":201}` || op.Response["status_code"] != 201 || op.Status != StepSuccess {
		t.Errorf("op step %+v", op)
	}
}

func TestOperationFailures(t *testing.T) {
	tests := []struct {
		name     string
		op       *workflow.State
		ops      *fakeOps
		plugins  *fakePlugins
		wantCode string // the run stops with it
		wantErr  string // the step fails with it
	}{
		{"a failed result follows on_failure", opState("op", "http.request", nil), &fakeOps{res: ports.OperationResult{Error: "503 is retryable", Outputs: map[string]any{"status_code": 503}}}, nil, "", "503 is retryable"},
		{"a broken runner fails the step", opState("op", "http.request", nil), &fakeOps{err: errors.New("runner broke")}, nil, "", "runner broke"},
		{"a plugin error result fails the step", opState("op", "echo.echo", nil), nil, &fakePlugins{res: tool.Error("no text")}, "", "operation echo.echo failed: no text"},
		{"a plugin that cannot answer fails the step", opState("op", "echo.echo", nil), nil, &fakePlugins{err: errors.New("plugin crashed")}, "", "plugin crashed"},
		{"no plugin host", opState("op", "echo.echo", nil), nil, nil, "", fault.ExecutionOperationUnavailable},
		{"a name that is no operation", opState("op", "nothing", nil), &fakeOps{}, &fakePlugins{}, "", fault.ExecutionOperationUnavailable},
		{"a bad template stops the run", opState("op", "http.request", map[string]any{"url": "https://x/{{.inputs.nope}}"}), &fakeOps{}, nil, fault.UserTemplateExec, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			if tc.ops != nil {
				opts.Operations = tc.ops
			}
			if tc.plugins != nil {
				opts.Plugins = tc.plugins
			}
			res, err := newRun(t, opts).Run(context.Background(), machine("ops", nil, tc.op), nil)
			if tc.wantCode != "" {
				if fault.CodeOf(err) != tc.wantCode {
					t.Fatalf("err %v, want %s", err, tc.wantCode)
				}
				return
			}
			step := res.Steps[0]
			if step.Status != StepFailure || step.Next != "ko" || !strings.Contains(step.Error, tc.wantErr) || step.ExitCode == 0 {
				t.Fatalf("step %+v, want a failure with %q", step, tc.wantErr)
			}
		})
	}
}

func TestOperationPlugin(t *testing.T) {
	pl := &fakePlugins{res: tool.Text(`{"title":"T","n":2}`)}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"show T": {}}}
	wf := machine("ops", nil, opState("op", "gh.get_issue", map[string]any{"number": "{{.workflow.Name}}", "all": true}),
		cmdState("show", "show {{.states.op.Response.title}}", "ok", "ko"))
	res, err := newRun(t, Options{Commands: sh, Plugins: pl, Operations: &fakeOps{}}).Run(context.Background(), wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.call != `gh/get_issue {"all":true,"number":"ops"}` {
		t.Errorf("plugin call %q", pl.call)
	}
	if op := res.Steps[0]; op.Output != `{"title":"T","n":2}` || op.Response["title"] != "T" {
		t.Errorf("op %+v", op)
	}
	// A result that is not a JSON object is Output only.
	pl.res = tool.Text("plain")
	res, _ = newRun(t, Options{Plugins: pl}).Run(context.Background(), machine("ops", nil, opState("op", "gh.x", nil)), nil)
	if op := res.Steps[0]; op.Output != "plain" || op.Response != nil || op.Status != StepSuccess || pl.call != "gh/x {}" {
		t.Errorf("op %+v call %q", op, pl.call)
	}
}

func TestOperationWithoutOutputsHasNoOutput(t *testing.T) {
	ops := &fakeOps{res: ports.OperationResult{Error: "refused"}}
	res, _ := newRun(t, Options{Operations: ops}).Run(context.Background(), machine("ops", nil, opState("op", "http.request", nil)), nil)
	if op := res.Steps[0]; op.Output != "" || op.Response != nil || op.Error != "refused" {
		t.Fatalf("op %+v", op)
	}
}
