package usecase

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

func TestCallRequestCheck(t *testing.T) {
	tests := []struct {
		kind, args string
		variant    tool.Variant
		wantArgs   string
		code       string
	}{
		{"tool-read", "", tool.VariantRead, "{}", ""},
		{"tool-write", `{"a":1}`, tool.VariantWrite, `{"a":1}`, ""},
		{"tool-destructive", `[]`, tool.VariantDestructive, `[]`, ""},
		{"tool-delete", "", "", "", fault.UserCLIInvalidVariant},
		{"read", "", "", "", fault.UserCLIInvalidVariant},
		{"tool-read", "{", "", "", fault.UserCLIInvalidArgs},
	}
	for _, tc := range tests {
		v, args, err := CallRequest{Kind: tc.kind, Args: tc.args}.Check()
		if fault.CodeOf(err) != tc.code || v != tc.variant || string(args) != tc.wantArgs {
			t.Errorf("Check(%q, %q) = %q, %s, %v", tc.kind, tc.args, v, args, err)
		}
	}
}

type callFixture struct {
	call  Call
	v     *validator
	specs []toolset.Spec
}

func newCall(rep validate.Report) *callFixture {
	fx := &callFixture{v: &validator{rep: rep}}
	fx.call = Call{Validator: fx.v, Root: "/proj", Proxy: &stepproxy.Service{
		RunID: CallRunID, ActivityFile: "/proj/.awf/runs/cli/activity.jsonl", PluginsFile: "/proj/.awf/plugins.yaml",
		Env: env{"OTEL_SERVICE_NAME=x", "MY_KEY=secret"},
		Build: func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
			fx.specs = append(fx.specs, spec)
			return routing.NewRouter(ctx, routing.Options{}, provider{})
		},
	}}
	return fx
}

func TestCallWithoutAStep(t *testing.T) {
	fx := newCall(validate.Report{})
	res, err := fx.call.Do(context.Background(), CallRequest{Kind: "tool-read", Tool: "Read", Args: `{"file_path":"x"}`})
	if err != nil || res.IsError || res.JoinedText() != `called Read {"file_path":"x"}` {
		t.Fatalf("Read = %+v, %v", res, err)
	}
	want := toolset.Spec{Root: "/proj", Builtins: true, Intent: toolset.DefaultIntent(), RunID: "cli",
		ActivityFile: "/proj/.awf/runs/cli/activity.jsonl", PluginsFile: "/proj/.awf/plugins.yaml",
		OTelEnv: map[string]string{"OTEL_SERVICE_NAME": "x"}, Sandbox: toolset.DefaultSandbox()}
	if len(fx.specs) != 1 || !reflect.DeepEqual(fx.specs[0], want) || fx.v.target != "" {
		t.Fatalf("spec %+v (validated %q)", fx.specs, fx.v.target)
	}
	// Strict by default: Bash through the read door is refused; --strict=false lets it through.
	if res, _ := fx.call.Do(context.Background(), CallRequest{Kind: "tool-read", Tool: "Bash"}); !res.IsError {
		t.Fatalf("Bash through tool-read = %+v", res)
	}
	lenient := false
	if res, _ := fx.call.Do(context.Background(), CallRequest{Kind: "tool-read", Tool: "Bash", Strict: &lenient}); res.IsError {
		t.Fatalf("Bash through tool-read, not strict = %+v", res)
	}
	if _, err := fx.call.Do(context.Background(), CallRequest{Kind: "tool-nope", Tool: "Bash"}); fault.CodeOf(err) != fault.UserCLIInvalidVariant {
		t.Fatalf("bad kind = %v", err)
	}
}

func TestCallTakesTheStepsToolset(t *testing.T) {
	fx := newCall(validate.Report{Name: "flow", Workflow: flow(agentState())})
	res, err := fx.call.Do(context.Background(), CallRequest{Kind: "tool-read", Tool: "Read", Workflow: "flow", Step: "ask"})
	if err != nil || res.IsError {
		t.Fatalf("Read = %+v, %v", res, err)
	}
	spec := fx.specs[0]
	if fx.v.target != "flow" || spec.Step != "ask" || spec.Root != "/proj" || !reflect.DeepEqual(spec.HideEnv, []string{"MY_KEY"}) ||
		!reflect.DeepEqual(spec.Intent.Allow, []tool.Variant{tool.VariantRead}) || spec.PluginTools[0].Plugin != "notes" {
		t.Fatalf("step spec %+v", spec)
	}
	// The step allows read only.
	if res, _ := fx.call.Do(context.Background(), CallRequest{Kind: "tool-destructive", Tool: "Bash", Workflow: "flow", Step: "ask"}); !res.IsError {
		t.Fatalf("Bash under allow [read] = %+v", res)
	}
}

func TestCallStepProblems(t *testing.T) {
	fx := newCall(validate.Report{Name: "flow", Workflow: flow(agentState())})
	ctx := context.Background()
	if _, err := fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read", Workflow: "flow"}); fault.CodeOf(err) != fault.UserCLIMissingFlag {
		t.Fatalf("--workflow alone = %v", err)
	}
	if _, err := fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read", Step: "ask"}); fault.CodeOf(err) != fault.UserCLIMissingFlag {
		t.Fatalf("--step alone = %v", err)
	}
	_, err := fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read", Workflow: "flow", Step: "aks"})
	var fe *fault.Error
	if fault.CodeOf(err) != fault.UserCLIUnknownStep || !errors.As(err, &fe) || !strings.Contains(fe.Hint, "ask") || !strings.Contains(err.Error(), `"flow" has no step "aks"`) {
		t.Fatalf("unknown step = %v", err)
	}
	fx.v.rep.Diagnostics = fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Severity: fault.SeverityError}}
	_, err = fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read", Workflow: "flow", Step: "ask"})
	var invalid *InvalidWorkflowError
	if !errors.As(err, &invalid) || invalid.Report.Name != "flow" || err.Error() != `workflow "flow" is invalid: 1 error(s)` {
		t.Fatalf("invalid workflow = %v", err)
	}
	boom := errors.New("boom")
	fx.v.err = boom
	if _, err := fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read", Workflow: "flow", Step: "ask"}); err != boom {
		t.Fatalf("validator failure = %v", err)
	}
	if len(fx.specs) != 0 {
		t.Fatalf("a router was built for a call that could not be made: %+v", fx.specs)
	}
	fx.call.Proxy.Build = func(context.Context, toolset.Spec) (*routing.Router, error) { return nil, boom }
	if _, err := fx.call.Do(ctx, CallRequest{Kind: "tool-read", Tool: "Read"}); err != boom {
		t.Fatalf("router failure = %v", err)
	}
}

func TestReportedSaysItsCode(t *testing.T) {
	if got := (&Reported{Code: 2}).Error(); got != "exit 2" {
		t.Fatal(got)
	}
}
