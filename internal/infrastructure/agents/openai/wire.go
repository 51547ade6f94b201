package openai

import (
	"bytes"
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// The chat-completions wire format, reduced to the fields awf sends and reads. Unknown fields in
// answers are ignored, so servers that add their own (reasoning_content, x_groq, …) still work.

type chatRequest struct {
	Model         string         `json:"model"`
	Messages      []message      `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	Tools         []toolSpec     `json:"tools,omitempty"`
	ToolChoice    string         `json:"tool_choice,omitempty"`
	Temperature   *float64       `json:"temperature,omitempty"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// message is one conversation entry. Content is always sent (an empty string next to tool
// calls), because some servers reject a null content.
type message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolSpec struct {
	Type     string       `json:"type"`
	Function functionSpec `json:"function"`
}

type functionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ToolCall is one assembled tool call of an assistant turn.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the tool and carries its arguments as the JSON text the model wrote.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chunk is one streamed event, or (with Message set) a whole non-streaming answer.
type chunk struct {
	Model   string    `json:"model"`
	Choices []choice  `json:"choices"`
	Usage   *usage    `json:"usage"`
	Error   *apiError `json:"error"`
}

type choice struct {
	Index        int     `json:"index"`
	Delta        *delta  `json:"delta"`
	Message      *delta  `json:"message"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Content   *string         `json:"content"`
	ToolCalls []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a piece of a tool call. Index is a pointer because a few servers omit it;
// Arguments is raw because a few send an object instead of a string.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// apiError is the error object OpenAI-compatible servers send, in an error body or mid-stream.
// Some servers send a bare string instead, which UnmarshalJSON accepts.
type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

func (e *apiError) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		e.Message = s
		return nil
	}
	type plain apiError
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*e = apiError(p)
	return nil
}

// argumentText turns the arguments of a delta into text: a JSON string is unquoted (the normal
// case), anything else (an object some servers send) is kept as the JSON it is.
func argumentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// emptySchema is the parameters of a tool that declares no input schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// toolSpecs converts the session's tools to the request's tools[].
func toolSpecs(defs []tool.Definition) []toolSpec {
	out := make([]toolSpec, 0, len(defs))
	for _, d := range defs {
		params := d.InputSchema
		if len(bytes.TrimSpace(params)) == 0 || !json.Valid(params) {
			params = emptySchema
		}
		out = append(out, toolSpec{Type: "function", Function: functionSpec{Name: d.Name, Description: d.Description, Parameters: params}})
	}
	return out
}
