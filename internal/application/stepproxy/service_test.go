package stepproxy

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

type provider struct{ defs []tool.Definition }

func (p provider) ListTools(context.Context) ([]tool.Definition, error) { return p.defs, nil }
func (p provider) CallTool(_ context.Context, name string, _ json.RawMessage) (tool.Result, error) {
	return tool.Text("called " + name), nil
}
func (provider) Close() error { return nil }

type source []activity.Record

func (s source) List(_ context.Context, f activity.Filter) ([]activity.Record, error) {
	var out []activity.Record
	for _, r := range s {
		if f.Match(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

func defs() []tool.Definition {
	schema := json.RawMessage(`{"type":"object"}`)
	return []tool.Definition{
		{Name: "Read", InputSchema: schema, Annotations: tool.Annotations{ReadOnlyHint: tool.Bool(true)}, Source: tool.BuiltinSource},
		{Name: "Bash", InputSchema: schema, Annotations: tool.Annotations{DestructiveHint: tool.Bool(true)}, Source: tool.BuiltinSource},
	}
}

func service(t *testing.T, got *proxy.ServeConfig, recs source) *Service {
	return &Service{
		Build: func(ctx context.Context, cfg proxy.ServeConfig) (*routing.Router, error) {
			*got = cfg
			return routing.NewRouter(ctx, routing.Options{}, provider{defs()})
		},
		AwfPath: "/usr/bin/awf", RunID: "r1", TempDir: t.TempDir(), ActivityFile: "/x/activity.jsonl",
		LogFile: "/x/run.log", PluginsFile: "/p/plugins.yaml", Activity: recs,
		InProcess: map[string]bool{"openai_compatible": true}, StragglerGrace: 50_000_000,
	}
}

func agentStep(provider string, allow ...tool.Variant) *workflow.State {
	in := workflow.DefaultIntent()
	if allow != nil {
		in.Allow = allow
	}
	return &workflow.State{Name: "review", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: provider,
		MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, Intent: in,
			PluginTools: []workflow.PluginTools{{Plugin: "notes", Expose: []string{"get"}}}}}}
}

func TestPrepareCLIWritesPrivateConfig(t *testing.T) {
	var cfg proxy.ServeConfig
	svc := service(t, &cfg, nil)
	sess, err := svc.Prepare(context.Background(), stepOf(agentStep("claude", tool.VariantRead), "/work/repo"))
	if err != nil {
		t.Fatal(err)
	}
	a := sess.Attach
	if a == nil || sess.Tools != nil || a.Command != "/usr/bin/awf" || a.ServerName != "awf" || strings.Join(a.Tools, ",") != "Read" || !a.InterceptBuiltins {
		t.Fatalf("attachment %+v", a)
	}
	cfgFile := a.Args[len(a.Args)-1]
	st, err := os.Stat(cfgFile)
	if err != nil || st.Mode().Perm() != 0o600 || !strings.HasPrefix(cfgFile, svc.TempDir) {
		t.Fatalf("config file %s: %v %v", cfgFile, st, err)
	}
	f, _ := os.Open(cfgFile)
	decoded, err := proxy.Decode(f)
	_ = f.Close()
	if err != nil || decoded.RootDir != "/work/repo" || decoded.Step != "review" || decoded.RunID != "r1" || decoded.PluginTools[0].Plugin != "notes" || decoded.ReadyFile == "" {
		t.Fatalf("decoded config %+v (%v)", decoded, err)
	}
	// The CLI "ran" but the proxy never wrote its ready file: the step must fail.
	if _, err := sess.Finish(context.Background(), nil); fault.CodeOf(err) != fault.ExecutionMCPProxyNotServed {
		t.Fatalf("Finish without ready file: %v", err)
	}
	if _, err := os.Stat(a.TempDir); !os.IsNotExist(err) {
		t.Fatalf("step dir not removed: %v", err)
	}
}

func TestFinishAcceptsReadyProxyAndStopsStraggler(t *testing.T) {
	var cfg proxy.ServeConfig
	recs := source{
		{RunID: "r1", Step: "review", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}},
		{RunID: "r1", Step: "review", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}},
		{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeRefused, Intent: tool.Intent{Variant: "destructive"}},
		{RunID: "r1", Step: "other", Tool: "Grep", Outcome: activity.OutcomeSuccess},
	}
	sess, err := service(t, &cfg, recs).Prepare(context.Background(), stepOf(agentStep("claude"), "/w"))
	if err != nil {
		t.Fatal(err)
	}
	straggler := exec.Command("sleep", "60")
	if err := straggler.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = straggler.Wait() }()
	b, _ := json.Marshal(map[string]any{"pid": straggler.Process.Pid, "tools": []string{"Read"}})
	if err := os.WriteFile(cfg.ReadyFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	summary, err := sess.Finish(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if summary != "tool calls: Bash×1 destructive refused, Read×2 read" {
		t.Fatalf("summary %q", summary)
	}
	if running(straggler.Process.Pid) {
		t.Fatal("straggler still running")
	}
}

func TestPrepareInProcess(t *testing.T) {
	var cfg proxy.ServeConfig
	sess, err := service(t, &cfg, nil).Prepare(context.Background(), stepOf(agentStep("openai_compatible", tool.VariantRead, tool.VariantWrite), "/w"))
	if err != nil {
		t.Fatal(err)
	}
	if sess.Attach != nil || sess.Tools == nil {
		t.Fatalf("session %+v", sess)
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
	if entries, _ := os.ReadDir(filepath.Dir(sess.dir)); len(entries) != 0 {
		t.Fatalf("temp left behind: %v", entries)
	}
}

func stepOf(st *workflow.State, dir string) Step {
	a := st.Agent()
	return Step{Name: st.Name, Provider: a.Provider, Proxy: a.MCPProxy, Options: a.Options, Dir: dir}
}
