package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// operationExecutor runs operation states: a built-in operation (http.request) through the
// OperationRunner port, or <plugin>.<operation> through the plugin host. Inputs are rendered as
// data, never as shell: a value from an input or a step's output is sent as it is.
//
// The result: Response holds the operation's outputs (for http.request: status_code, body,
// headers, body_truncated; for a plugin: its result text parsed as a JSON object, when it is
// one); Output is the outputs as one JSON object for a built-in, the result text for a plugin.
// A failed operation (a refused input, an unreachable endpoint, a retryable status, a plugin
// error result) fails the state with exit code 1, and on_failure and retry apply. An HTTP
// status is not a failure unless listed in retryable_status_codes, as in the reference awf.
type operationExecutor struct {
	builtins ports.OperationRunner
	plugins  ports.OperationProvider
}

// Execute implements Executor.
func (x operationExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	spec := st.Operation()
	name := strings.TrimSpace(spec.Operation)
	inputs, err := operationInputs(st, name, spec.Inputs, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	if x.builtins != nil {
		for _, s := range x.builtins.Specs() {
			if s.Name == name {
				return x.builtin(ctx, name, inputs)
			}
		}
	}
	plugin, op, ok := strings.Cut(name, ".")
	if !ok || x.plugins == nil {
		return Outcome{}, fault.New(fault.ExecutionOperationUnavailable, "no built-in or plugin serves operation %q of state %q here", name, st.Name)
	}
	args, err := json.Marshal(inputs)
	if err != nil {
		return Outcome{}, Stop(fault.Wrap(err, fault.UserWorkflowInvalidValue, "the inputs of state %q cannot be sent as JSON", st.Name))
	}
	res, err := x.plugins.Execute(ctx, plugin, op, args)
	if err != nil {
		return Outcome{}, err
	}
	text := res.JoinedText()
	out := Outcome{Status: StepSuccess, Output: text}
	var obj map[string]any
	if json.Unmarshal([]byte(text), &obj) == nil {
		out.Response = obj
	}
	if res.IsError {
		out.Status, out.ExitCode, out.Error = StepFailure, 1, fmt.Sprintf("operation %s failed: %s", name, firstLine(text))
	}
	return out, nil
}

func (x operationExecutor) builtin(ctx context.Context, name string, inputs map[string]any) (Outcome, error) {
	res, err := x.builtins.Run(ctx, name, inputs)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Status: StepSuccess, Response: res.Outputs}
	if len(res.Outputs) > 0 {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(res.Outputs) == nil {
			out.Output = strings.TrimSuffix(b.String(), "\n")
		}
	}
	if !res.Success {
		out.Status, out.ExitCode, out.Error = StepFailure, 1, res.Error
	}
	return out, nil
}

// renderInputs renders every string inside v as a template (as data, not shell), keeping the
// shape and the other values.
func renderInputs(st *workflow.State, path string, v any, scope Scope) (any, error) {
	switch x := v.(type) {
	case string:
		return render(st.Name+"."+path, x, scope, st.ValueAt(path))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := renderInputs(st, path+"."+k, e, scope)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := renderInputs(st, fmt.Sprintf("%s[%d]", path, i), e, scope)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}
