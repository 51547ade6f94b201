package run

import (
	"context"
	"strconv"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// maxSessionMessages bounds the text turns a session keeps (and state.json holds): the oldest
// go first. A CLI keeps its own history by session id; an HTTP endpoint is sent these turns.
const maxSessionMessages = 200

// tracksSession reports whether an agent step keeps a conversation another step can continue:
// it has a `conversation:` block (even `{}`, the reference's marker) or is `mode: conversation`.
func tracksSession(spec *workflow.AgentSpec) bool {
	return spec.Conversation != nil || spec.Mode == workflow.ModeConversation
}

// continued is the session the step continues: the one conversation.continue_from names, which
// must have run before in this run and left a session id or history.
func continued(st *workflow.State, spec *workflow.AgentSpec, scope Scope) (*ports.AgentSession, error) {
	if spec.Conversation == nil || spec.Conversation.ContinueFrom == "" {
		return nil, nil
	}
	from := spec.Conversation.ContinueFrom
	d, ok := scope.State(from)
	switch {
	case !ok:
		return nil, fault.New(fault.UserConversationNoSession, "continue_from: step %q of state %q has not run yet in this run", from, st.Name).
			At(st.ValueAt("conversation.continue_from")).WithHint("continue a step that runs before this one")
	case d.Session == nil || (d.Session.ID == "" && len(d.Session.Messages) == 0):
		return nil, fault.New(fault.UserConversationNoSession, "continue_from: step %q has no session ID or conversation history to resume", from).
			At(st.ValueAt("conversation.continue_from")).WithHint("give step %q a `conversation: {}` block so that it keeps its session", from)
	}
	s := *d.Session
	s.Messages = append([]ports.SessionMessage(nil), d.Session.Messages...)
	return &s, nil
}

// converse runs the step's turns: one call, and for `mode: conversation` more while the turn
// source gives the user's next message. Each call continues the session the previous one left.
// The returned session is nil for a step that does not track one.
func (x agentExecutor) converse(ctx context.Context, provider ports.AgentProvider, req ports.AgentRequest, st *workflow.State, spec *workflow.AgentSpec) (ports.AgentResult, *ports.AgentSession, error) {
	if !tracksSession(spec) {
		res, err := provider.Run(ctx, req)
		return res, nil, err
	}
	first := 1
	if req.Session != nil {
		first += req.Session.Turns // a continued session goes on counting
	}
	res, err := x.turn(ctx, provider, req, first)
	if err != nil {
		return res, nil, err
	}
	sess := after(req, res)
	for spec.Mode == workflow.ModeConversation && x.turns != nil {
		msg, ok := x.turns.NextTurn(ctx, st.Name, res.Output)
		if !ok {
			break
		}
		req.Prompt, req.Session = msg, sess
		next, err := x.turn(ctx, provider, req, sess.Turns+1)
		if err != nil {
			return next, sess, err
		}
		res, sess = sumUsage(res, next), after(req, next)
	}
	return res, sess, nil
}

// after is the session once a call answered: the id the provider reported (or the one it
// continued), the turns so far plus this prompt and answer, one more turn.
func after(req ports.AgentRequest, res ports.AgentResult) *ports.AgentSession {
	s := &ports.AgentSession{ID: res.SessionID, Turns: 1}
	if prev := req.Session; prev != nil {
		if s.ID == "" {
			s.ID = prev.ID
		}
		s.Turns += prev.Turns
		s.Messages = append(s.Messages, prev.Messages...)
	}
	s.Messages = append(s.Messages, ports.SessionMessage{Role: "user", Content: req.Prompt}, ports.SessionMessage{Role: "assistant", Content: res.Output})
	if n := len(s.Messages); n > maxSessionMessages {
		s.Messages = s.Messages[n-maxSessionMessages:]
	}
	return s
}

// sumUsage is the last answer with the tokens and cost of every turn.
func sumUsage(total, next ports.AgentResult) ports.AgentResult {
	next.InputTokens += total.InputTokens
	next.OutputTokens += total.OutputTokens
	next.CostUSD += total.CostUSD
	return next
}

// turn runs one call of a conversation as a span of its own, numbered n within the step (the
// turns of a continued session go on counting), with n in the context so that every tool call
// of the turn made through awf's in-process router records it.
//
// A CLI's tool calls go through the `awf mcp-serve` it spawns, which cannot see ctx: the turn
// reaches it as `--turn n` on the attachment's command line.
func (x agentExecutor) turn(ctx context.Context, provider ports.AgentProvider, req ports.AgentRequest, n int) (ports.AgentResult, error) {
	ctx = activity.WithTurn(ctx, n)
	if a := req.Attach; a != nil {
		numbered := *a
		numbered.Args = append(append([]string(nil), a.Args...), "--turn", strconv.Itoa(n))
		req.Attach = &numbered
	}
	if x.tracer != nil {
		var span trace.Span
		ctx, span = x.tracer.Start(ctx, "agent.turn", trace.WithAttributes(
			attribute.String("awf.step", req.Step), attribute.Int("awf.turn", n)))
		defer span.End()
		res, err := provider.Run(ctx, req)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "turn failed")
		}
		if res.SessionID != "" {
			span.SetAttributes(attribute.String("awf.session_id", res.SessionID))
		}
		return res, err
	}
	return provider.Run(ctx, req)
}
