package mcpbridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// maxSchemaProblem bounds the validator's text quoted in a result: it may echo the server's
// values, which can be long.
const maxSchemaProblem = 400

// outputSchema is a tool's declared outputSchema, compiled once per listing. A schema awf cannot
// compile is kept with why, and every successful result of that tool is then refused: a check
// that cannot run must not pass.
type outputSchema struct {
	resolved *jsonschema.Resolved
	err      error
}

// compileOutput compiles raw, an outputSchema as the server listed it. No $ref is fetched: a
// schema refers to itself or to nothing.
func compileOutput(raw json.RawMessage) *outputSchema {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return &outputSchema{err: fmt.Errorf("not a JSON Schema: %v", err)}
	}
	rs, err := s.Resolve(nil)
	return &outputSchema{resolved: rs, err: err}
}

// check applies the MCP rule for a tool that declares an outputSchema to res: a successful
// result must carry structuredContent that conforms to it. A result that does not becomes an
// error result saying so, its structuredContent withheld and the server's content blocks kept
// after the explanation; an error result passes as it is.
func (o *outputSchema) check(plugin, name string, res tool.Result) tool.Result {
	if res.IsError {
		return res
	}
	problem := o.problem(res.Structured)
	if problem == "" {
		return res
	}
	msg := fmt.Sprintf("MCP plugin %q: the result of %s does not match the output schema the tool declares (%s); awf withheld its structuredContent. Report it to the server's author, or call another tool.", plugin, name, problem)
	out := tool.Result{IsError: true, Meta: res.Meta, Content: make([]tool.Content, 0, len(res.Content)+1)}
	out.Content = append(out.Content, tool.Content{Type: "text", Text: msg})
	out.Content = append(out.Content, res.Content...)
	return out
}

// problem says why structured does not conform, or "" when it does.
func (o *outputSchema) problem(structured json.RawMessage) string {
	if o.err != nil {
		return "awf cannot use that schema: " + clip(o.err.Error())
	}
	if len(structured) == 0 {
		return "it has no structuredContent"
	}
	var v any
	if err := json.Unmarshal(structured, &v); err != nil {
		return "its structuredContent is not JSON: " + clip(err.Error())
	}
	if err := o.resolved.Validate(v); err != nil {
		return clip(err.Error())
	}
	return ""
}

// clip bounds s to maxSchemaProblem bytes on a rune boundary, on one line.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxSchemaProblem {
		return s
	}
	cut := maxSchemaProblem
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
