package routing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// retrieve_tools limits.
const (
	retrieveDefaultLimit = 10
	retrieveMaxLimit     = 100
)

// retrievedTool is one entry of retrieve_tools' answer (seed data model, "ToolWithAnnotations").
type retrievedTool struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	InputSchema json.RawMessage   `json:"inputSchema"`
	Score       float64           `json:"score"`
	Source      tool.Source       `json:"source"`
	Annotations *tool.Annotations `json:"annotations,omitempty"`
	CallWith    string            `json:"call_with"`
}

// retrieveAnswer is the whole answer.
type retrieveAnswer struct {
	Tools             []retrievedTool `json:"tools"`
	Total             int             `json:"total"`
	Message           string          `json:"message,omitempty"`
	UsageInstructions string          `json:"usage_instructions"`
}

// retrieve runs retrieve_tools(query?, limit?): the tools the step may call, ranked by BM25 over
// name and description when a query is given, else in registration order. Scores are scaled so
// the best match is 1 (0 when no query ranks them). Exposure.CallTool records it like any call.
func (e *Exposure) retrieve(raw json.RawMessage) tool.Result {
	query, limit, msg := parseRetrieve(raw)
	if msg != "" {
		return tool.Error(msg)
	}
	defs := e.callable()
	ans := retrieveAnswer{Tools: []retrievedTool{}, Total: len(defs), UsageInstructions: usageInstructions(e.s)}
	if len(tool.Tokenize(query)) == 0 {
		for _, d := range defs[:min(limit, len(defs))] {
			ans.Tools = append(ans.Tools, entryFor(d, 0))
		}
	} else {
		matches := tool.Rank(defs, query, limit)
		for _, m := range matches {
			ans.Tools = append(ans.Tools, entryFor(defs[m.Index], math.Round(m.Score/matches[0].Score*1000)/1000))
		}
		if len(matches) == 0 {
			ans.Message = fmt.Sprintf("no tool matches %q; call retrieve_tools without a query to list all %d tools this step can call", clipName(query), len(defs))
		}
	}
	if len(defs) == 0 {
		ans.Message = "this step can call no tool: mcp_proxy.intent.allow excludes every tool served"
	}
	b, err := json.Marshal(ans)
	if err != nil {
		return tool.Error("retrieve_tools could not encode its answer: " + err.Error())
	}
	return tool.Text(string(b))
}

// entryFor describes one tool, with the split tool to call it with.
func entryFor(d tool.Definition, score float64) retrievedTool {
	t := retrievedTool{
		Name: d.Name, Description: d.Description, InputSchema: d.InputSchema, Score: score, Source: d.Source,
		CallWith: tool.SplitToolName(tool.CallWith(d.Annotations)),
	}
	if !d.Annotations.IsZero() {
		a := d.Annotations
		t.Annotations = &a
	}
	return t
}

// parseRetrieve reads {query?, limit?}; msg explains what is wrong.
func parseRetrieve(raw json.RawMessage) (query string, limit int, msg string) {
	limit = retrieveDefaultLimit
	if isNull(raw) {
		return "", limit, ""
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(raw), &params); err != nil || params == nil {
		return "", 0, `the arguments of retrieve_tools must be a JSON object such as {"query": "read file", "limit": 10}`
	}
	for _, k := range sortedKeys(params) {
		v := params[k]
		switch {
		case k != "query" && k != "limit":
			hint := ""
			if c := closest(k, []string{"query", "limit"}); c != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", c)
			}
			return "", 0, fmt.Sprintf("retrieve_tools has no parameter %q%s; its parameters are query and limit", clipName(k), hint)
		case isNull(v):
		case k == "query":
			if err := json.Unmarshal(v, &query); err != nil {
				return "", 0, "query must be a string of words to search tool names and descriptions for, got " + jsonKind(v)
			}
		default:
			var f float64
			if err := json.Unmarshal(v, &f); err != nil || f != math.Trunc(f) {
				return "", 0, "limit must be an integer from 1 to 100, got " + jsonKind(v)
			}
			if f < 1 || f > retrieveMaxLimit {
				return "", 0, fmt.Sprintf("limit must be from 1 to %d, got %s", retrieveMaxLimit, fmtFloat(f))
			}
			limit = int(f)
		}
	}
	return query, limit, ""
}
