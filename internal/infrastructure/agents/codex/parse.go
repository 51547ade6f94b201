package codex

import (
	"errors"
	"strings"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// event is one line of `codex exec --json`.
type event struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
	Item     *struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Message string `json:"message"`
	} `json:"item"`
	Usage *struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// parse reads the event stream. The answer is the last agent_message; usage is summed over
// turn.completed events (cached input is part of input_tokens in the Responses API, so it is
// not added again). Lines that are not JSON events are skipped (cli.EachEvent).
func parse(r cli.Result) (ports.AgentResult, error) {
	var out ports.AgentResult
	var completed int
	var failed, lastError string
	events, err := cli.EachEvent(r.Stdout, func(ev *event) string { return ev.Type }, func(ev *event) {
		switch ev.Type {
		case "thread.started":
			out.SessionID = ev.ThreadID
		case "item.completed":
			if ev.Item != nil && ev.Item.Type == "agent_message" {
				out.Output = ev.Item.Text
			}
		case "turn.completed":
			completed++
			if ev.Usage != nil {
				out.InputTokens += ev.Usage.InputTokens
				out.OutputTokens += ev.Usage.OutputTokens
			}
		case "turn.failed":
			failed = "the turn failed"
			if ev.Error != nil && ev.Error.Message != "" {
				failed = ev.Error.Message
			}
		case "error":
			lastError = ev.Message
		}
	})
	if err != nil {
		return out, err
	}
	switch {
	case failed != "":
		return out, cli.AgentError(Name, "%s", failed).
			WithHint("%s", hint)
	case events == 0:
		return out, errors.New("no JSON events")
	case completed == 0:
		why := "the stream ended before turn.completed"
		if lastError != "" {
			why += "; last error: " + strings.TrimSpace(lastError)
		}
		return out, errors.New(why)
	}
	return out, nil
}
