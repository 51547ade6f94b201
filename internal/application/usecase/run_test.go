package usecase

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

type runFixture struct {
	uc       Run
	v        *validator
	view     *view
	files    *files
	agent    *agent
	specs    []toolset.Spec
	logs     []string
	closed   int
	flushed  int
	ids      int
	activity []string
}

func newRun(rep validate.Report) *runFixture {
	fx := &runFixture{v: &validator{rep: rep}, view: &view{}, files: &files{}, agent: &agent{}}
	fx.uc = Run{Root: "/proj", View: fx.view, RunPorts: RunPorts{
		Validator: fx.v,
		NewRunID:  func() string { fx.ids++; return "r1" },
		OpenLog: func(file string) (*zap.Logger, func() error, error) {
			fx.logs = append(fx.logs, file)
			return zap.NewNop(), func() error { fx.closed++; return nil }, nil
		},
		StartTracing: func(context.Context) (func(context.Context) error, error) {
			return func(ctx context.Context) error {
				if _, ok := ctx.Deadline(); !ok || ctx.Err() != nil {
					return errors.New("flush without a live deadline")
				}
				fx.flushed++
				return nil
			}, nil
		},
		Agents: func(*zap.Logger) map[string]ports.AgentProvider {
			return map[string]ports.AgentProvider{"fake": fx.agent}
		},
		Files:     fx.files,
		Env:       env{"OTEL_SERVICE_NAME=x"},
		Processes: noProcs{},
		Handoff:   noHandoff{},
		Activity: func(file string) ports.ActivitySource {
			fx.activity = append(fx.activity, file)
			return records{}
		},
		ActivityFileName: "activity.jsonl",
		Routers: func(*zap.Logger) stepproxy.RouterFactory {
			return func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
				fx.specs = append(fx.specs, spec)
				return routing.NewRouter(ctx, routing.Options{}, provider{})
			}
		},
		AwfPath:   "/bin/awf",
		InProcess: map[string]bool{"fake": true},
	}}
	return fx
}

func TestRunAnAgentStepWithItsProxy(t *testing.T) {
	fx := newRun(validate.Report{Name: "flow", Workflow: flow(agentState()),
		Diagnostics: fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Severity: fault.SeverityWarning, Message: "careful"}}})
	if err := fx.uc.Do(context.Background(), RunRequest{Target: "flow", Inputs: []string{"count=2"}}); err != nil {
		t.Fatal(err)
	}
	if fx.v.target != "flow" || !reflect.DeepEqual(fx.view.events, []string{"warnings", "started flow r1", "finished"}) || len(fx.view.warnings) != 1 {
		t.Fatalf("view %v, warnings %v", fx.view.events, fx.view.warnings)
	}
	if fx.view.err != nil || fx.view.res.Status != "success" || fx.view.runDir != "/proj/.awf/runs/r1" {
		t.Fatalf("finished with %+v, %v in %s", fx.view.res, fx.view.err, fx.view.runDir)
	}
	if !reflect.DeepEqual(fx.logs, []string{"/proj/.awf/runs/r1/run.log"}) || fx.closed != 1 || fx.flushed != 1 {
		t.Fatalf("log %v closed %d, traces flushed %d", fx.logs, fx.closed, fx.flushed)
	}
	if !reflect.DeepEqual(fx.files.made, []string{"/awf-run-r1-1", "/awf-run-r1-1/step-ask-1"}) || !reflect.DeepEqual(fx.files.removed, []string{"/awf-run-r1-1/step-ask-1", "/awf-run-r1-1"}) {
		t.Fatalf("temp dirs made %v, removed %v", fx.files.made, fx.files.removed)
	}
	want := toolset.Spec{Root: "/proj", Builtins: true,
		PluginTools: []toolset.PluginTools{{Plugin: "notes", Expose: []string{"get"}}},
		Intent:      toolset.Intent{Allow: []tool.Variant{tool.VariantRead}, Strict: true}, ActivityFile: "/proj/.awf/runs/r1/activity.jsonl", LogFile: "/proj/.awf/runs/r1/run.log",
		ReadyFile: "/awf-run-r1-1/step-ask-1/ready.json", RunID: "r1", Step: "ask", PluginsFile: "/proj/.awf/plugins.yaml",
		HideEnv: []string{"MY_KEY"}, OTelEnv: map[string]string{"OTEL_SERVICE_NAME": "x"}, Sandbox: toolset.DefaultSandbox()}
	if len(fx.specs) != 1 {
		t.Fatalf("specs %+v", fx.specs)
	}
	if got := fx.specs[0]; !reflect.DeepEqual(got, want) {
		t.Fatalf("step spec\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(fx.activity, []string{"/proj/.awf/runs/r1/activity.jsonl"}) || fx.view.res.Steps[0].Tools != "tool calls: Read×1 read" {
		t.Fatalf("activity %v, step %+v", fx.activity, fx.view.res.Steps)
	}
	if out := fx.view.res.Steps[0].Output; out != "called Read {}" || fx.agent.req.Attach != nil {
		t.Fatalf("the agent's tools do not reach the router: %q", out)
	}
}

func TestRunFailureExitsWithTheRunsCode(t *testing.T) {
	fx := newRun(validate.Report{Name: "flow", Workflow: flow(agentState())})
	fx.uc.InProcess = nil // the step's proxy then needs mcp-serve, whose config cannot be written here
	err := fx.uc.Do(context.Background(), RunRequest{Target: "flow"})
	var rep *Reported
	if !errors.As(err, &rep) || rep.Code != fault.ExitCode(fx.view.err) || fx.view.err == nil || rep.Code == fault.ExitOK {
		t.Fatalf("Do = %v, view err %v", err, fx.view.err)
	}
	if fx.closed != 1 || fx.flushed != 1 || len(fx.files.removed) == 0 || fx.files.removed[len(fx.files.removed)-1] != "/awf-run-r1-1" {
		t.Fatalf("not cleaned up: log closed %d, flushed %d, removed %v", fx.closed, fx.flushed, fx.files.removed)
	}
}

func TestRunStopsBeforeTheRunStarts(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")

	fx := newRun(validate.Report{})
	fx.v.err = boom
	if err := fx.uc.Do(ctx, RunRequest{Target: "x"}); err != boom {
		t.Fatalf("validator failure = %v", err)
	}

	fx = newRun(validate.Report{Name: "flow", Workflow: flow(nil), Diagnostics: fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Severity: fault.SeverityError}}})
	err := fx.uc.Do(ctx, RunRequest{Target: "flow"})
	var rep *Reported
	if !errors.As(err, &rep) || rep.Code != fault.ExitUser || fx.view.invalid == nil || !reflect.DeepEqual(fx.view.events, []string{"warnings", "invalid"}) {
		t.Fatalf("invalid workflow = %v, view %v", err, fx.view.events)
	}

	fx = newRun(validate.Report{Name: "flow", Workflow: flow(nil)})
	if err := fx.uc.Do(ctx, RunRequest{Target: "flow", Inputs: []string{"count"}}); fault.CodeOf(err) != fault.UserInputSyntax {
		t.Fatalf("malformed --input = %v", err)
	}
	err = fx.uc.Do(ctx, RunRequest{Target: "flow", Inputs: []string{"count=many", "nope=1"}})
	if !errors.As(err, &rep) || rep.Code != fault.ExitUser || len(fx.view.inputs) != 2 || fx.view.inputs[0].Code != fault.UserInputInvalidValue {
		t.Fatalf("bad inputs = %v, shown %v", err, fx.view.inputs)
	}
	if fx.ids != 0 || len(fx.logs) != 0 || len(fx.files.made) != 0 {
		t.Fatalf("a run was started for bad inputs: ids %d, logs %v, dirs %v", fx.ids, fx.logs, fx.files.made)
	}
}

func TestRunSetupFailures(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	ok := validate.Report{Name: "flow", Workflow: flow(nil)}

	fx := newRun(ok)
	fx.uc.OpenLog = func(string) (*zap.Logger, func() error, error) { return nil, nil, boom }
	if err := fx.uc.Do(ctx, RunRequest{Target: "flow"}); fault.CodeOf(err) != fault.SystemFSRunDir || !errors.Is(err, boom) || !strings.Contains(err.Error(), "/proj/.awf/runs/r1") {
		t.Fatalf("log failure = %v", err)
	}

	fx = newRun(ok)
	fx.uc.StartTracing = func(context.Context) (func(context.Context) error, error) { return nil, boom }
	if err := fx.uc.Do(ctx, RunRequest{Target: "flow"}); fault.CodeOf(err) != fault.UserOTelConfig || !errors.Is(err, boom) || fx.closed != 1 {
		t.Fatalf("tracing failure = %v (log closed %d)", err, fx.closed)
	}

	fx = newRun(ok)
	fx.files.fail = boom
	if err := fx.uc.Do(ctx, RunRequest{Target: "flow"}); fault.CodeOf(err) != fault.SystemFSTemp || !errors.Is(err, boom) || fx.flushed != 1 || fx.closed != 1 {
		t.Fatalf("temp dir failure = %v (flushed %d, closed %d)", err, fx.flushed, fx.closed)
	}
	if !reflect.DeepEqual(fx.view.events, []string{"warnings"}) {
		t.Fatalf("the view saw a run that never started: %v", fx.view.events)
	}
}
