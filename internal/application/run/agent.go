package run

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"go.opentelemetry.io/otel/trace"
)

// agentExecutor runs agent states on their provider, behind the step's MCP proxy when it asks
// for one.
type agentExecutor struct {
	agents  map[string]ports.AgentProvider
	proxy   *stepproxy.Service
	prompts ports.PromptSource
	runID   string
	paths   paths
	// turns gives `mode: conversation` steps the user's next messages; nil runs one turn.
	turns ports.TurnSource
	// tracer makes a span of each turn of a conversation step.
	tracer trace.Tracer
	// sessionDir is where CLI providers keep the private homes of sessions (Options.SessionDir).
	sessionDir string
}

// Execute renders the prompt (from prompt_file when set), prepares the proxy, and runs the
// provider. A provider awf does not have fails the step; a proxy that cannot start fails it too,
// since the agent must never run without the tools the workflow promised it.
func (x agentExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	spec := st.Agent()
	provider, ok := x.agents[spec.Provider]
	if !ok {
		err := fault.New(fault.ExecutionAgentProviderUnavailable, "provider %q not available: %s", spec.Provider, availableProviders(x.agents))
		return Outcome{Status: StepFailure, ExitCode: -1, Error: err.Error()}, nil
	}
	prompt, err := x.prompt(ctx, st, spec, scope)
	if err != nil {
		return Outcome{}, err
	}
	dir, err := x.paths.stepDir(st, spec.Dir, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	if err := templatedRootOutside(st, spec.Dir, dir, x.paths.root); err != nil {
		return Outcome{Status: StepFailure, ExitCode: -1, Error: err.Error()}, nil
	}
	resume, err := continued(st, spec, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	opts, system, err := withSystemPrompt(st, spec, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	req := ports.AgentRequest{
		RunID: x.runID, Step: scope.label(st.Name), Provider: spec.Provider, Prompt: prompt, SystemPrompt: system,
		Options: opts, Dir: dir, Timeout: st.Timeout, Proxy: spec.MCPProxy, Session: resume,
		KeepSession: tracksSession(spec), SessionDir: x.sessionDir,
	}
	var sess *stepproxy.Session
	if spec.MCPProxy != nil && spec.MCPProxy.Enable {
		if x.proxy == nil {
			return Outcome{}, Stop(fault.New(fault.SystemMCPProxyUnwired, "step %q asks for the MCP proxy but this awf has none wired", st.Name))
		}
		if dir == "" {
			dir = "."
		}
		sess, err = x.proxy.Prepare(ctx, stepproxy.Step{Name: scope.label(st.Name), Provider: spec.Provider, Proxy: spec.MCPProxy, Options: spec.Options, Dir: absDir(dir)})
		if err != nil {
			return Outcome{}, err
		}
		req.Tools, req.Attach = sess.Tools, sess.Attach
	}
	res, session, err := x.converse(ctx, provider, req, st, spec)
	out := Outcome{Session: session}
	if sess != nil {
		summary, ferr := sess.Finish(context.WithoutCancel(ctx), err)
		out.Tools = summary
		if err == nil {
			err = ferr
		}
	}
	if err != nil {
		return out, err
	}
	out.Status, out.Output = StepSuccess, res.Output
	formatOutput(st, spec.OutputFormat, &out)
	return out, nil
}

// prompt returns the step's rendered prompt. prompt_file is read through the PromptSource; a
// file that cannot be read stops the run, unless the step's context ended first (a timeout or
// an interrupt, which the scheduler sorts out).
func (x agentExecutor) prompt(ctx context.Context, st *workflow.State, spec *workflow.AgentSpec, scope Scope) (string, error) {
	text := spec.Prompt
	if spec.PromptFile != "" {
		path, err := render(st.Name+".prompt_file", spec.PromptFile, scope, st.KeyPos["prompt_file"])
		if err != nil {
			return "", Stop(err)
		}
		if x.prompts == nil {
			return "", Stop(fault.New(fault.SystemRunSetup, "step %q reads a prompt_file but this awf has no prompt source wired", st.Name))
		}
		text, err = x.prompts.ReadPrompt(ctx, x.paths.resolve(path))
		if err != nil {
			if ctx.Err() != nil {
				return "", err
			}
			return "", Stop(promptFileError(st, err))
		}
	}
	p, err := render(st.Name+".prompt", text, scope, st.KeyPos["prompt"])
	if err != nil {
		return "", Stop(err)
	}
	return p, nil
}

// promptFileError names the step and points at its prompt_file key, keeping what the source
// said was wrong and what to do about it.
func promptFileError(st *workflow.State, err error) error {
	e := fault.Wrap(err, fault.UserAgentPromptFile, "cannot read prompt_file of step %q", st.Name).At(st.KeyPos["prompt_file"])
	var fe *fault.Error
	if errors.As(err, &fe) {
		e.Message += ": " + fe.Message
		e.Hint, e.Err = fe.Hint, fe.Err
	}
	return e
}

func availableProviders(m map[string]ports.AgentProvider) string {
	if len(m) == 0 {
		return "no agent providers are available in this build yet"
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return "available providers: " + strings.Join(names, ", ")
}
