package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Name is the provider name workflows write (`provider: openai_compatible`).
const Name = workflow.ProviderOpenAICompatible

// tracerName names the instrumentation scope of model-request spans.
const tracerName = "awf/agents/openai"

// Provider is the openai_compatible agent provider. It holds only configuration, never anything
// about a step, so one value is safe for any number of concurrent Run calls.
type Provider struct {
	client *http.Client
	log    *zap.Logger
	tracer trace.Tracer
	getenv func(string) string
	retry  RetryPolicy
}

// Option adjusts a Provider.
type Option func(*Provider)

// WithGetenv replaces os.Getenv for reading OPENAI_BASE_URL, OPENAI_MODEL and the API key
// variable, so a run can pass its own environment and tests need not touch the process's.
func WithGetenv(getenv func(string) string) Option {
	return func(p *Provider) {
		if getenv != nil {
			p.getenv = getenv
		}
	}
}

// WithRetryPolicy replaces DefaultRetryPolicy; zero fields keep their default.
func WithRetryPolicy(r RetryPolicy) Option {
	return func(p *Provider) {
		if r.Attempts > 0 {
			p.retry.Attempts = r.Attempts
		}
		if r.BaseDelay > 0 {
			p.retry.BaseDelay = r.BaseDelay
		}
		if r.MaxDelay > 0 {
			p.retry.MaxDelay = r.MaxDelay
		}
	}
}

// New returns the provider. client nil means a client with no global timeout: each request is
// bounded by the step's request_timeout and the whole loop by the step's context. logger nil
// discards logs; tracer nil uses the global provider's tracer (a no-op unless one is set).
func New(client *http.Client, logger *zap.Logger, tracer trace.Tracer, opts ...Option) *Provider {
	if client == nil {
		client = &http.Client{}
	}
	if logger == nil {
		logger = zap.NewNop()
	}
	if tracer == nil {
		tracer = otel.Tracer(tracerName)
	}
	p := &Provider{client: client, log: logger, tracer: tracer, getenv: os.Getenv, retry: DefaultRetryPolicy}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Name returns "openai_compatible".
func (p *Provider) Name() string { return Name }

// Run runs one agent step: the multi-turn loop until the model answers without tool calls.
// Tool failures and refusals go back to the model as text and never end the step; the step
// fails on an endpoint error (EXECUTION.AGENT.*), on the loop guard
// (USER.MCP_PROXY.INFINITE_LOOP_GUARD), or when ctx ends (step timeout, Ctrl+C).
func (p *Provider) Run(ctx context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	s, err := resolveSettings(req.Options, p.getenv)
	if err != nil {
		return ports.AgentResult{}, err
	}
	l := &loop{p: p, req: req, s: s, key: p.getenv(s.APIKeyEnv), kept: newBudget()}
	return l.run(ctx)
}

// loop is the state of one Run; it lives on the stack of that call only.
type loop struct {
	p    *Provider
	req  ports.AgentRequest
	s    Settings
	key  string
	msgs []message
	res  ports.AgentResult
	// kept bounds the conversation msgs holds (budget.go).
	kept budget
}

func (l *loop) run(ctx context.Context) (ports.AgentResult, error) {
	if l.s.SystemPrompt != "" {
		l.msgs = append(l.msgs, message{Role: "system", Content: l.s.SystemPrompt})
	}
	if sess := l.req.Session; sess != nil { // an endpoint keeps nothing: the turns go again
		for _, m := range sess.Messages {
			if m.Role == "user" || m.Role == "assistant" {
				l.msgs = append(l.msgs, message{Role: m.Role, Content: m.Content})
				l.kept.charge(len(m.Content))
			}
		}
	}
	l.msgs = append(l.msgs, message{Role: "user", Content: l.req.Prompt})
	l.kept.charge(len(l.s.SystemPrompt) + len(l.req.Prompt))
	var tools []toolSpec
	if l.req.Tools != nil {
		tools = toolSpecs(l.req.Tools.ListTools())
	}
	for turn := 1; ; turn++ {
		t, err := l.request(ctx, turn, tools)
		if err != nil {
			return l.res, err
		}
		if len(t.ToolCalls) == 0 {
			if t.FinishReason == "tool_calls" {
				return l.res, fault.New(fault.UserMCPProxyInfiniteLoopGuard, "model %q ended turn %d asking for tool calls but sent none; stopping so the step cannot loop forever", l.s.Model, turn).
					WithHint("the model or its server mishandles tool calling; try another model, or check the server's tool-call parser")
			}
			l.res.Output = t.Content
			return l.res, nil
		}
		if turn >= l.s.MaxTurns {
			return l.res, fault.New(fault.UserMCPProxyInfiniteLoopGuard, "model %q still asked for tools after max_turns (%d) turns; stopping so the step cannot loop forever", l.s.Model, l.s.MaxTurns).
				WithHint("raise options.max_turns if the task really needs more turns, or make the prompt more specific")
		}
		l.msgs = append(l.msgs, l.keepAssistant(t))
		for _, c := range t.ToolCalls {
			if err := ctx.Err(); err != nil {
				return l.res, fault.Wrap(context.Cause(ctx), fault.ExecutionAgentCancelled, "the step ended while running the tool calls of model %q", l.s.Model)
			}
			l.msgs = append(l.msgs, message{Role: "tool", ToolCallID: c.ID, Content: l.kept.keepResult(l.callTool(ctx, c))})
		}
	}
}

// keepAssistant is the assistant turn as the conversation keeps it: its text, and its calls
// with their arguments bounded (the calls themselves run with their full arguments).
func (l *loop) keepAssistant(t Turn) message {
	l.kept.charge(len(t.Content))
	calls := make([]ToolCall, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		l.kept.charge(len(c.ID) + len(c.Function.Name))
		c.Function.Arguments = l.kept.keepArguments(c.Function.Arguments)
		calls[i] = c
	}
	return message{Role: "assistant", Content: t.Content, ToolCalls: calls}
}

// callTool runs one tool call through the session and turns its result into the text the model
// reads. Errors and refusals are prefixed "ERROR: " so the model can tell them from output. A
// bridged MCP server's non-text blocks and structuredContent reach the model as their MCP JSON
// (tool.Result.ModelText): a chat-completions tool message holds text only.
func (l *loop) callTool(ctx context.Context, c ToolCall) string {
	if l.req.Tools == nil {
		return "ERROR: no tools are available in this step; answer without calling tools."
	}
	r := l.req.Tools.CallTool(tool.WithCallID(ctx, c.ID), c.Function.Name, json.RawMessage(c.Function.Arguments))
	text := r.ModelText()
	if r.IsError {
		if text == "" {
			text = "the tool failed without a message"
		}
		return "ERROR: " + text
	}
	if text == "" {
		return "(no output)"
	}
	return text
}
