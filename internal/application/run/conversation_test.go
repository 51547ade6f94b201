package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// sessionAgent answers each call with the call's number and a session id, and keeps every
// request it got.
type sessionAgent struct {
	reqs []ports.AgentRequest
	id   string
}

func (a *sessionAgent) Name() string { return "claude" }
func (a *sessionAgent) Run(_ context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.reqs = append(a.reqs, req)
	return ports.AgentResult{Output: fmt.Sprintf("answer %d", len(a.reqs)), SessionID: a.id, InputTokens: 10, OutputTokens: 1}, nil
}

// scriptedTurns gives the messages in order, then ends the conversation.
type scriptedTurns struct {
	msgs    []string
	replies []string
}

func (s *scriptedTurns) NextTurn(_ context.Context, _, reply string) (string, bool) {
	s.replies = append(s.replies, reply)
	if len(s.msgs) == 0 {
		return "", false
	}
	m := s.msgs[0]
	s.msgs = s.msgs[1:]
	return m, true
}

func seedAndRecall(seedConv *workflow.Conversation) *workflow.Workflow {
	seed := agentState("remember BANANA42")
	seed.Name, seed.OnSuccess = "seed", "recall"
	seed.Agent().Conversation = seedConv
	recall := agentState("what was the word?")
	recall.Name = "recall"
	recall.Agent().Conversation = &workflow.Conversation{ContinueFrom: "seed"}
	return flow(seed, recall)
}

func TestContinueFromPassesTheSeedSession(t *testing.T) {
	ag := &sessionAgent{id: "sess-1"}
	res, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}}).Run(context.Background(), seedAndRecall(&workflow.Conversation{}), one)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("run: %v %+v", err, res)
	}
	if len(ag.reqs) != 2 || ag.reqs[0].Session != nil {
		t.Fatalf("requests %+v", ag.reqs)
	}
	got := ag.reqs[1].Session
	if got == nil || got.ID != "sess-1" || got.Turns != 1 || len(got.Messages) != 2 ||
		got.Messages[0] != (ports.SessionMessage{Role: "user", Content: "remember BANANA42"}) ||
		got.Messages[1] != (ports.SessionMessage{Role: "assistant", Content: "answer 1"}) {
		t.Fatalf("recall continued %+v", got)
	}
	if s := res.Steps[1].Session; s == nil || s.Turns != 2 || len(s.Messages) != 4 || s.ID != "sess-1" {
		t.Fatalf("recall's own session %+v", s)
	}
}

func TestContinueFromAStepWithoutSessionStops(t *testing.T) {
	ag := &sessionAgent{}
	_, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}}).Run(context.Background(), seedAndRecall(nil), one)
	if fault.CodeOf(err) != fault.UserConversationNoSession || !strings.Contains(err.Error(), `step "seed" has no session ID or conversation history to resume`) || len(ag.reqs) != 1 {
		t.Fatalf("err %v after %d calls", err, len(ag.reqs))
	}
}

func TestConversationModeTakesTurnsUntilTheUserStops(t *testing.T) {
	st := agentState("first")
	st.Agent().Mode = workflow.ModeConversation
	ag := &sessionAgent{id: "s"}
	turns := &scriptedTurns{msgs: []string{"second", "third"}}
	res, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}, Turns: turns}).Run(context.Background(), flow(st), one)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("run: %v", err)
	}
	if len(ag.reqs) != 3 || ag.reqs[1].Prompt != "second" || ag.reqs[2].Prompt != "third" || ag.reqs[2].Session == nil || ag.reqs[2].Session.Turns != 2 {
		t.Fatalf("requests %+v", ag.reqs)
	}
	if strings.Join(turns.replies, ",") != "answer 1,answer 2,answer 3" {
		t.Errorf("the user was shown %q", turns.replies)
	}
	s := res.Steps[0]
	if s.Output != "answer 3" || s.Session == nil || s.Session.Turns != 3 || len(s.Session.Messages) != 6 {
		t.Errorf("step %+v session %+v", s, s.Session)
	}
}

func TestSingleStepKeepsNoSessionAndSessionsAreBounded(t *testing.T) {
	ag := &sessionAgent{}
	res, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}}).Run(context.Background(), flow(agentState("p")), one)
	if err != nil || res.Steps[0].Session != nil {
		t.Fatalf("a plain step kept a session: %v %+v", err, res.Steps[0].Session)
	}
	long := &ports.AgentSession{ID: "x", Turns: 150}
	for i := range maxSessionMessages {
		long.Messages = append(long.Messages, ports.SessionMessage{Role: "user", Content: fmt.Sprint(i)})
	}
	s := after(ports.AgentRequest{Prompt: "new", Session: long}, ports.AgentResult{Output: "out"})
	if len(s.Messages) != maxSessionMessages || s.Messages[0].Content != "2" || s.Messages[len(s.Messages)-1].Content != "out" || s.Turns != 151 || s.ID != "x" {
		t.Fatalf("bounded session: %d messages, first %q, turns %d", len(s.Messages), s.Messages[0].Content, s.Turns)
	}
}

// turnCtxAgent notes the turn each call's context carries, as the in-process router reads it.
type turnCtxAgent struct{ turns []int }

func (a *turnCtxAgent) Name() string { return "claude" }
func (a *turnCtxAgent) Run(ctx context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.turns = append(a.turns, activity.TurnOf(ctx))
	return ports.AgentResult{Output: "ok", SessionID: "s"}, nil
}

// Each turn of a conversation step is a span numbered within the step, and its calls carry the
// turn for the activity records; a step without a conversation gets neither.
func TestConversationTurnsAreSpansAndMarkTheirCalls(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	st := agentState("first")
	st.Agent().Mode = workflow.ModeConversation
	ag := &turnCtxAgent{}
	_, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}, Tracer: tp.Tracer("t"),
		Turns: &scriptedTurns{msgs: []string{"second"}}}).Run(context.Background(), flow(st), one)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ag.turns) != "[1 2]" {
		t.Fatalf("turns seen by the calls %v, want [1 2]", ag.turns)
	}
	var got []string
	for _, s := range rec.Ended() {
		if s.Name() != "agent.turn" {
			continue
		}
		for _, a := range s.Attributes() {
			if a.Key == "awf.turn" {
				got = append(got, a.Value.String())
			}
		}
	}
	if strings.Join(got, ",") != "1,2" {
		t.Fatalf("turn spans %v, want 1,2", got)
	}

	plain := &turnCtxAgent{}
	rec2 := tracetest.NewSpanRecorder()
	tp2 := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec2))
	if _, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": plain}, Tracer: tp2.Tracer("t")}).Run(context.Background(), flow(agentState("p")), one); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(plain.turns) != "[0]" {
		t.Errorf("a plain step's call carries turn %v", plain.turns)
	}
	for _, s := range rec2.Ended() {
		if s.Name() == "agent.turn" {
			t.Error("a plain step made a turn span")
		}
	}
}

// A step continuing a session goes on counting its turns, and a CLI's mcp-serve learns the turn
// from its command line (it cannot see the context), without the step's attachment changing.
func TestContinuedTurnsCountOnAndReachTheProxy(t *testing.T) {
	ag := &turnCtxAgent{}
	if _, err := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}}).Run(context.Background(), seedAndRecall(&workflow.Conversation{}), one); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ag.turns) != "[1 2]" {
		t.Fatalf("turns of seed and recall %v, want [1 2]", ag.turns)
	}

	sa := &sessionAgent{}
	attach := &ports.ProxyAttachment{Command: "awf", Args: []string{"mcp-serve", "--config", "f.json"}}
	if _, err := (agentExecutor{}).turn(context.Background(), sa, ports.AgentRequest{Attach: attach}, 3); err != nil {
		t.Fatal(err)
	}
	if got := sa.reqs[0].Attach.Args; strings.Join(got, " ") != "mcp-serve --config f.json --turn 3" {
		t.Errorf("mcp-serve args %q", got)
	}
	if len(attach.Args) != 3 {
		t.Errorf("the step's attachment was changed: %q", attach.Args)
	}
}
