package run

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func agents(a *fakeAgent) map[string]ports.AgentProvider {
	return map[string]ports.AgentProvider{"claude": a}
}

func TestAgentSteps(t *testing.T) {
	two := map[string]string{"n": "2"}
	t.Run("missing provider fails the step clearly", func(t *testing.T) {
		p := &fakePrompts{}
		st := agentState("")
		st.Agent().PromptFile = "p.md"
		res, err := newRun(t, Options{Prompts: p}).Run(context.Background(), flow(st), two)
		s := res.Steps[0]
		if fault.CodeOf(err) != fault.WorkflowRunFailed || s.ExitCode != -1 || s.Next != "bad" ||
			s.Error != `[EXECUTION.AGENT.PROVIDER_UNAVAILABLE] provider "claude" not available: no agent providers are available in this build yet` {
			t.Fatalf("err %v steps %+v", err, res.Steps)
		}
		if len(p.asked) != 0 {
			t.Errorf("the prompt file was read for a provider awf does not have: %v", p.asked)
		}
		other := map[string]ports.AgentProvider{"gemini": &fakeAgent{}, "codex": &fakeAgent{}}
		res, _ = newRun(t, Options{Agents: other}).Run(context.Background(), flow(agentState("x")), two)
		if !strings.HasSuffix(res.Steps[0].Error, "available providers: codex, gemini") {
			t.Errorf("error %q does not list the providers in order", res.Steps[0].Error)
		}
	})
	t.Run("output, interpolated prompt and request", func(t *testing.T) {
		a := &fakeAgent{out: ports.AgentResult{Output: "four"}}
		st := agentState("sum {{.inputs.n}}")
		st.Timeout = time.Minute
		st.Agent().Dir = "sub"
		res, err := newRun(t, Options{Agents: agents(a), RunID: "r", Dir: "/proj"}).Run(context.Background(), flow(st), two)
		g := a.got
		if err != nil || res.Steps[0].Output != "four" || res.Steps[0].Status != StepSuccess || res.Steps[0].Type != "agent" {
			t.Fatalf("err %v res %+v", err, res)
		}
		if g.Prompt != "sum 2" || g.Step != "ask" || g.RunID != "r" || g.Provider != "claude" || g.Options["model"] != "m" ||
			g.Dir != "/proj/sub" || g.Timeout != time.Minute || g.Proxy != nil || g.Tools != nil || g.Attach != nil {
			t.Errorf("request %+v", g)
		}
	})
	t.Run("provider error fails the step", func(t *testing.T) {
		a := &fakeAgent{err: errors.New("cli crashed")}
		res, err := newRun(t, Options{Agents: agents(a)}).Run(context.Background(), flow(agentState("x")), two)
		if fault.CodeOf(err) != fault.WorkflowRunFailed || res.Steps[0].Error != "cli crashed" || res.Steps[0].ExitCode != -1 {
			t.Fatalf("err %v steps %+v", err, res.Steps)
		}
	})
	t.Run("a prompt or dir that does not render stops the run", func(t *testing.T) {
		for _, st := range []*workflow.State{agentState("{{.inputs.missing}}"), func() *workflow.State {
			s := agentState("ok")
			s.Agent().Dir = "{{.states.none.Output}}"
			return s
		}()} {
			a := &fakeAgent{}
			_, err := newRun(t, Options{Agents: agents(a)}).Run(context.Background(), flow(st), two)
			if fault.CodeOf(err) != fault.UserTemplateExec || a.calls != 0 {
				t.Errorf("err %v, agent called %d times", err, a.calls)
			}
		}
	})
}

// TestPromptFile checks the prompt_file is read through the PromptSource, resolved against the
// root, and rendered as a template: deleting the read fails this test.
func TestPromptFile(t *testing.T) {
	pos := fault.Position{File: "wf.yaml", Line: 7, Column: 5}
	withFile := func(path string) *workflow.State {
		st := agentState("")
		st.Agent().PromptFile = path
		st.KeyPos = map[string]fault.Position{"prompt_file": pos}
		return st
	}
	in := map[string]string{"n": "2", "who": "alice"}
	t.Run("content rendered as a template", func(t *testing.T) {
		a := &fakeAgent{out: ports.AgentResult{Output: "ok"}}
		p := &fakePrompts{files: map[string]string{"/proj/prompts/alice.md": "sum {{.inputs.n}} for {{.workflow.Name}}"}}
		_, err := newRun(t, Options{Agents: agents(a), Prompts: p, Dir: "/proj"}).Run(context.Background(), flow(withFile("prompts/{{.inputs.who}}.md")), in)
		if err != nil || a.got.Prompt != "sum 2 for t" {
			t.Fatalf("err %v prompt %q (asked %v)", err, a.got.Prompt, p.asked)
		}
	})
	t.Run("an absolute path is read as given", func(t *testing.T) {
		a := &fakeAgent{}
		p := &fakePrompts{files: map[string]string{"/abs/p.md": "plain"}}
		_, err := newRun(t, Options{Agents: agents(a), Prompts: p, Dir: "/proj"}).Run(context.Background(), flow(withFile("/abs/p.md")), in)
		if err != nil || a.got.Prompt != "plain" {
			t.Fatalf("err %v prompt %q", err, a.got.Prompt)
		}
	})
	tests := []struct {
		name     string
		prompts  ports.PromptSource
		path     string
		wantCode string
		wantMsg  []string
	}{
		{"a coded refusal keeps its message and hint, names the step and points at the key",
			&fakePrompts{err: fault.New(fault.UserAgentPromptFile, "prompt file /proj/p is a named pipe (FIFO), not a regular file").WithHint("use a regular file")},
			"p", fault.UserAgentPromptFile,
			[]string{`wf.yaml:7:5: [USER.AGENT.PROMPT_FILE] cannot read prompt_file of step "ask": prompt file /proj/p is a named pipe (FIFO), not a regular file (hint: use a regular file)`}},
		{"a plain error is coded", &fakePrompts{err: errors.New("disk on fire")}, "p", fault.UserAgentPromptFile,
			[]string{`wf.yaml:7:5: [USER.AGENT.PROMPT_FILE] cannot read prompt_file of step "ask": disk on fire`}},
		{"a path that does not render stops the run", &fakePrompts{}, "{{.inputs.nope}}", fault.UserTemplateExec, []string{"prompt_file"}},
		{"a content that does not render stops the run", &fakePrompts{files: map[string]string{"/proj/p": "{{.states.x.Output}}"}}, "p", fault.UserTemplateExec, []string{"ask.prompt"}},
		{"no prompt source is awf's own error", nil, "p", fault.SystemRunSetup, []string{"no prompt source"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeAgent{}
			res, err := newRun(t, Options{Agents: agents(a), Prompts: tc.prompts, Dir: "/proj"}).Run(context.Background(), flow(withFile(tc.path)), in)
			if fault.CodeOf(err) != tc.wantCode || res.Status != RunError || a.calls != 0 {
				t.Fatalf("err %v status %s agent calls %d", err, res.Status, a.calls)
			}
			for _, m := range tc.wantMsg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q lacks %q", err, m)
				}
			}
		})
	}
	t.Run("a read that outlives the step's timeout fails the step", func(t *testing.T) {
		a := &fakeAgent{}
		st := withFile("fifo")
		st.Timeout = 20 * time.Millisecond
		res, err := newRun(t, Options{Agents: agents(a), Prompts: &fakePrompts{block: true}}).Run(context.Background(), flow(st), in)
		if fault.CodeOf(err) != fault.WorkflowRunFailed || res.Terminal != "bad" || !strings.Contains(res.Steps[0].Error, fault.ExecutionStepTimeout) || a.calls != 0 {
			t.Fatalf("err %v res %+v", err, res)
		}
	})
}

// proxyService is the one place these tests build a stepproxy.Service: a router factory, and for
// in-process providers claude; what else the service needs to run is filled in here alone.
func proxyService(t *testing.T, build stepproxy.RouterFactory, inProcess bool) *stepproxy.Service {
	svc := &stepproxy.Service{TempDir: t.TempDir(), Build: build, Activity: noActivity{}, Files: memFiles{}, Env: noEnv{}}
	if inProcess {
		svc.InProcess = map[string]bool{"claude": true}
	}
	return svc
}

// memFiles hands out private directory names without touching the disk: the in-process path
// writes no file.
type memFiles struct{}

func (memFiles) MakeDir(parent, prefix string) (string, error) {
	return parent + "/" + prefix + "x", nil
}
func (memFiles) WriteFile(string, []byte) error { return nil }
func (memFiles) RemoveAll(string) error         { return nil }

type noEnv struct{}

func (noEnv) Environ() []string { return nil }

type noActivity struct{}

func (noActivity) List(context.Context, activity.Filter) ([]activity.Record, error) { return nil, nil }

func TestAgentProxy(t *testing.T) {
	proxied := func() *workflow.State {
		st := agentState("go")
		st.Agent().MCPProxy = &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, Intent: workflow.DefaultIntent()}
		return st
	}
	one := map[string]string{"n": "1"}
	t.Run("a proxy asked for but not wired stops the run", func(t *testing.T) {
		a := &fakeAgent{}
		_, err := newRun(t, Options{Agents: agents(a)}).Run(context.Background(), flow(proxied()), one)
		if fault.CodeOf(err) != fault.SystemMCPProxyUnwired || a.calls != 0 {
			t.Fatalf("err %v calls %d", err, a.calls)
		}
	})
	t.Run("a proxy not enabled needs no wiring", func(t *testing.T) {
		a := &fakeAgent{}
		st := proxied()
		st.Agent().MCPProxy.Enable = false
		if _, err := newRun(t, Options{Agents: agents(a)}).Run(context.Background(), flow(st), one); err != nil || a.got.Proxy == nil || a.got.Tools != nil {
			t.Fatalf("err %v req %+v", err, a.got)
		}
	})
	t.Run("a proxy that cannot start fails the step, and the agent never runs", func(t *testing.T) {
		a := &fakeAgent{}
		svc := proxyService(t, func(context.Context, toolset.Spec) (*routing.Router, error) {
			return nil, fault.New(fault.SystemMCPProxySetup, "no router")
		}, false)
		res, err := newRun(t, Options{Agents: agents(a), Proxy: svc}).Run(context.Background(), flow(proxied()), one)
		if fault.CodeOf(err) != fault.WorkflowRunFailed || a.calls != 0 || !strings.Contains(res.Steps[0].Error, "no router") {
			t.Fatalf("err %v calls %d steps %+v", err, a.calls, res.Steps)
		}
	})
	t.Run("an in-process proxy hands the agent its tools and reports the calls", func(t *testing.T) {
		a := &fakeAgent{out: ports.AgentResult{Output: "done"}}
		var cfg toolset.Spec
		svc := proxyService(t, func(ctx context.Context, c toolset.Spec) (*routing.Router, error) {
			cfg = c
			return routing.NewRouter(ctx, routing.Options{})
		}, true)
		st := proxied()
		st.Agent().Dir = "rel"
		res, err := newRun(t, Options{Agents: agents(a), Proxy: svc}).Run(context.Background(), flow(st), one)
		if err != nil || a.got.Tools == nil || res.Steps[0].Tools != "tool calls: none" || res.Steps[0].Output != "done" {
			t.Fatalf("err %v req %+v steps %+v", err, a.got, res.Steps)
		}
		if !filepath.IsAbs(cfg.Root) || filepath.Base(cfg.Root) != "rel" || cfg.Step != "ask" {
			t.Errorf("proxy config %+v: the root must be the step's absolute dir", cfg)
		}
	})
	t.Run("a step without dir gives the proxy the current directory", func(t *testing.T) {
		a := &fakeAgent{err: errors.New("boom")}
		var cfg toolset.Spec
		svc := proxyService(t, func(ctx context.Context, c toolset.Spec) (*routing.Router, error) {
			cfg = c
			return routing.NewRouter(ctx, routing.Options{})
		}, true)
		res, _ := newRun(t, Options{Agents: agents(a), Proxy: svc}).Run(context.Background(), flow(proxied()), one)
		if !filepath.IsAbs(cfg.Root) || res.Steps[0].Error != "boom" {
			t.Fatalf("root %q steps %+v", cfg.Root, res.Steps)
		}
	})
}
