package stepproxy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func defs() []tool.Definition {
	schema := json.RawMessage(`{"type":"object"}`)
	return []tool.Definition{
		{Name: "Read", InputSchema: schema, Annotations: tool.Annotations{ReadOnlyHint: tool.Bool(true)}, Source: tool.BuiltinSource},
		{Name: "Bash", InputSchema: schema, Annotations: tool.Annotations{DestructiveHint: tool.Bool(true)}, Source: tool.BuiltinSource},
	}
}

type fixture struct {
	svc   *Service
	built *toolset.Spec
	files *files
	hand  *handoff
	procs *procs
}

func newFixture(recs source) *fixture {
	fx := &fixture{built: &toolset.Spec{}, files: &files{}, hand: &handoff{}, procs: &procs{alive: map[int]bool{}}}
	fx.svc = &Service{
		Build: func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
			*fx.built = spec
			return routing.NewRouter(ctx, routing.Options{}, provider{defs()})
		},
		AwfPath: "/usr/bin/awf", RunID: "r1", TempDir: "/tmp/run", ActivityFile: "/x/activity.jsonl",
		LogFile: "/x/run.log", PluginsFile: "/p/plugins.yaml", Activity: recs,
		InProcess: map[string]bool{"openai_compatible": true}, StragglerGrace: time.Millisecond,
		Files: fx.files, Handoff: fx.hand, Processes: fx.procs,
	}
	return fx
}

func agentStep(provider string, allow ...tool.Variant) Step {
	in := workflow.DefaultIntent()
	if allow != nil {
		in.Allow = allow
	}
	return Step{Name: "review", Provider: provider, Dir: "/work/repo",
		Proxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, Intent: in,
			PluginTools: []workflow.PluginTools{{Plugin: "notes", Expose: []string{"get"}}}}}
}

func TestPrepareCLIWritesPrivateConfig(t *testing.T) {
	fx := newFixture(nil)
	sess, err := fx.svc.Prepare(context.Background(), agentStep("claude", tool.VariantRead))
	if err != nil {
		t.Fatal(err)
	}
	a := sess.Attach
	if a == nil || sess.Tools != nil || a.Command != "/usr/bin/awf" || a.ServerName != "awf" || strings.Join(a.Tools, ",") != "Read" || !a.InterceptBuiltins {
		t.Fatalf("attachment %+v", a)
	}
	if !reflect.DeepEqual(fx.files.made, []string{"/tmp/run/step-review-123"}) || a.TempDir != fx.files.made[0] {
		t.Fatalf("step dir %v, attachment dir %s", fx.files.made, a.TempDir)
	}
	cfgFile := "/tmp/run/step-review-123/mcp-serve.json"
	if !reflect.DeepEqual(a.Args, []string{"mcp-serve", "--config", cfgFile}) {
		t.Fatalf("args %v", a.Args)
	}
	spec, ok := fx.hand.specs[cfgFile]
	if !ok || !reflect.DeepEqual(spec, *fx.built) {
		t.Fatalf("written spec %+v differs from the one built %+v", spec, *fx.built)
	}
	if spec.Root != "/work/repo" || spec.Step != "review" || spec.RunID != "r1" || spec.PluginTools[0].Plugin != "notes" ||
		spec.ReadyFile != "/tmp/run/step-review-123/ready.json" || spec.LogFile != "/x/run.log" || spec.ActivityFile != "/x/activity.jsonl" || spec.PluginsFile != "/p/plugins.yaml" {
		t.Fatalf("spec %+v", spec)
	}
	// The CLI "ran" but the proxy never wrote its ready record: the step must fail.
	_, err = sess.Finish(context.Background(), nil)
	if fault.CodeOf(err) != fault.ExecutionMCPProxyNotServed || !strings.Contains(err.Error(), `step "review"`) {
		t.Fatalf("Finish without ready record: %v", err)
	}
	var fe *fault.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Hint, "/x/run.log") {
		t.Fatalf("hint does not name the log: %v", err)
	}
	if live := fx.files.live(); len(live) != 0 {
		t.Fatalf("step dir not removed: %v", live)
	}
}

func TestFinishKeepsTheStepsOwnError(t *testing.T) {
	fx := newFixture(nil)
	sess, err := fx.svc.Prepare(context.Background(), agentStep("claude"))
	if err != nil {
		t.Fatal(err)
	}
	// The step already failed: a missing ready record adds nothing.
	if _, err := sess.Finish(context.Background(), errors.New("agent failed")); err != nil {
		t.Fatalf("Finish after a failed step = %v", err)
	}
	if len(fx.procs.calls) != 0 {
		t.Fatalf("signals without a ready record: %v", fx.procs.calls)
	}
}

func TestFinishStopsStragglers(t *testing.T) {
	tests := []struct {
		name       string
		alive      bool
		ignoreTerm bool
		calls      []string
	}{
		{"exited with its CLI", false, false, nil},
		{"stops on SIGTERM", true, false, []string{"term"}},
		{"ignores SIGTERM", true, true, []string{"term", "kill"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(nil)
			sess, err := fx.svc.Prepare(context.Background(), agentStep("claude"))
			if err != nil {
				t.Fatal(err)
			}
			fx.procs.alive[77], fx.procs.ignoreTerm = tc.alive, tc.ignoreTerm
			fx.hand.ready = map[string]toolset.Ready{sess.readyFile: {PID: 77}}
			if _, err := sess.Finish(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fx.procs.calls, tc.calls) {
				t.Fatalf("signals %v, want %v", fx.procs.calls, tc.calls)
			}
			if fx.procs.Alive(77) {
				t.Fatal("straggler left alive")
			}
			for _, w := range fx.procs.waits {
				// The remaining time may already be negative on a loaded machine; never unbounded.
				if w == noDeadline || w > time.Millisecond {
					t.Fatalf("wait not bounded by the grace: %v", fx.procs.waits)
				}
			}
		})
	}
}

func TestStragglerGraceDefault(t *testing.T) {
	fx := newFixture(nil)
	fx.svc.StragglerGrace = 0
	fx.svc.stopStraggler(context.Background(), 5) // not alive: one wait only
	if len(fx.procs.waits) != 1 || fx.procs.waits[0] < DefaultStragglerGrace-time.Second || fx.procs.waits[0] > DefaultStragglerGrace {
		t.Fatalf("waits %v, want one of about %v", fx.procs.waits, DefaultStragglerGrace)
	}
}

func TestFinishSummarisesTheStepsCalls(t *testing.T) {
	recs := source{
		{RunID: "r1", Step: "review", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}},
		{RunID: "r1", Step: "review", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}},
		{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeRefused, Intent: tool.Intent{Variant: "read"}, ToolVariant: "destructive"},
		{RunID: "r1", Step: "other", Tool: "Grep", Outcome: activity.OutcomeSuccess},
		{RunID: "r0", Step: "review", Tool: "Glob", Outcome: activity.OutcomeSuccess},
	}
	fx := newFixture(recs)
	sess, err := fx.svc.Prepare(context.Background(), agentStep("openai_compatible"))
	if err != nil {
		t.Fatal(err)
	}
	if summary, _ := sess.Finish(context.Background(), nil); summary != "tool calls: Bash×1 destructive refused, Read×2 read" {
		t.Fatalf("summary %q", summary)
	}
	sess.step = "idle"
	if summary, _ := sess.Finish(context.Background(), nil); summary != "tool calls: none" {
		t.Fatalf("summary of a step without calls %q", summary)
	}
	fx.svc.Activity = failingSource{}
	if summary, _ := sess.Finish(context.Background(), nil); summary != "" {
		t.Fatalf("summary from an unreadable store %q", summary)
	}
	fx.svc.Activity = nil
	if summary, _ := sess.Finish(context.Background(), nil); summary != "" {
		t.Fatalf("summary without a store %q", summary)
	}
}

func TestPrepareInProcess(t *testing.T) {
	fx := newFixture(nil)
	sess, err := fx.svc.Prepare(context.Background(), agentStep("openai_compatible", tool.VariantRead, tool.VariantWrite))
	if err != nil {
		t.Fatal(err)
	}
	if sess.Attach != nil || sess.Tools == nil || len(fx.hand.specs) != 0 {
		t.Fatalf("session %+v, specs written %v", sess, fx.hand.specs)
	}
	names := []string{}
	for _, d := range sess.Tools.ListTools() {
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "Read" {
		t.Fatalf("tools %v", names)
	}
	if res := sess.Tools.CallTool(context.Background(), "Bash", nil); !res.IsError {
		t.Fatalf("Bash not refused under allow [read, write]: %+v", res)
	}
	if _, err := sess.Finish(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if live := fx.files.live(); len(live) != 0 {
		t.Fatalf("temp left behind: %v", live)
	}
}

func TestPrepareFailuresLeaveNothing(t *testing.T) {
	boom := errors.New("boom")
	fx := newFixture(nil)
	fx.files.failDir = boom
	if _, err := fx.svc.Prepare(context.Background(), agentStep("claude")); fault.CodeOf(err) != fault.SystemMCPProxySetup || !errors.Is(err, boom) {
		t.Fatalf("no step dir: %v", err)
	}

	fx = newFixture(nil)
	fx.svc.Build = func(context.Context, toolset.Spec) (*routing.Router, error) { return nil, boom }
	if _, err := fx.svc.Prepare(context.Background(), agentStep("claude")); !errors.Is(err, boom) {
		t.Fatalf("router failure: %v", err)
	}
	if live := fx.files.live(); len(fx.files.made) != 1 || len(live) != 0 {
		t.Fatalf("step dir after a router failure: made %v, live %v", fx.files.made, live)
	}

	fx = newFixture(nil)
	fx.hand.failSpec = boom
	if _, err := fx.svc.Prepare(context.Background(), agentStep("claude")); fault.CodeOf(err) != fault.SystemMCPProxySetup || !errors.Is(err, boom) {
		t.Fatalf("config write failure: %v", err)
	}
	if live := fx.files.live(); len(fx.files.made) != 1 || len(live) != 0 {
		t.Fatalf("step dir after a write failure: made %v, live %v", fx.files.made, live)
	}
}

func TestSafeStepDirNames(t *testing.T) {
	fx := newFixture(nil)
	st := agentStep("openai_compatible")
	st.Name = "a b/c"
	sess, err := fx.svc.Prepare(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Finish(context.Background(), nil)
	if fx.files.made[0] != "/tmp/run/step-a_b_c-123" || fx.files.parents[0] != "/tmp/run" {
		t.Fatalf("step dir %v in %v", fx.files.made, fx.files.parents)
	}
}
