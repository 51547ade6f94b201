package opencode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// event is one line of `opencode run --format json`.
type event struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	Part      *struct {
		MessageID string  `json:"messageID"`
		Text      string  `json:"text"`
		Cost      float64 `json:"cost"`
		Tokens    *struct {
			Input  int `json:"input"`
			Output int `json:"output"`
			Cache  struct {
				Read  int `json:"read"`
				Write int `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	} `json:"part"`
	Error *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

// parse reads the event stream. The answer is the text of the last message that had any (a
// step that called a tool may have talked before the call; the final step's text is the
// answer). Tokens and cost are summed over step_finish events; cache reads and writes count
// as input, as for Claude.
func parse(r cli.Result) (ports.AgentResult, error) {
	var out ports.AgentResult
	var lastMsg string
	var texts []string
	var failure string
	events, err := cli.EachEvent(r.Stdout, func(ev *event) string { return ev.Type }, func(ev *event) {
		if ev.SessionID != "" {
			out.SessionID = ev.SessionID
		}
		switch ev.Type {
		case "text":
			if ev.Part == nil {
				return
			}
			if ev.Part.MessageID != lastMsg {
				lastMsg, texts = ev.Part.MessageID, nil
			}
			texts = append(texts, ev.Part.Text)
		case "step_finish":
			if ev.Part != nil && ev.Part.Tokens != nil {
				tk := ev.Part.Tokens
				out.InputTokens += tk.Input + tk.Cache.Read + tk.Cache.Write
				out.OutputTokens += tk.Output
			}
			if ev.Part != nil {
				out.CostUSD += ev.Part.Cost
			}
		case "error":
			failure = "the run failed"
			if ev.Error != nil {
				failure = strings.TrimSpace(ev.Error.Data.Message)
				if failure == "" {
					failure = ev.Error.Name
				} else if ev.Error.Name != "" {
					failure = fmt.Sprintf("%s: %s", ev.Error.Name, failure)
				}
			}
		}
	})
	if err != nil {
		return out, err
	}
	out.Output = strings.Join(texts, "\n")
	switch {
	case failure != "":
		return out, cli.AgentError(Name, "%s", failure).
			WithHint("%s", hint)
	case events == 0:
		return out, errors.New("no JSON events")
	}
	return out, nil
}
