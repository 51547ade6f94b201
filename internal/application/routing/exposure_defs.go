package routing

import (
	"encoding/json"
	"strings"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// The descriptions follow the seed's "Tool Description Updates", adapted to awf: the operation
// type is inferred from the variant unless require_declaration is set, the read door also refuses
// a tool that says it is not read-only, and non-strict mode warns instead of rejecting.

// splitDefinitions builds the split-mode tool list for s: retrieve_tools, then each allowed
// call_tool_* variant.
func splitDefinitions(s IntentSettings) []tool.Definition {
	defs := []tool.Definition{{
		Name:        RetrieveToolsName,
		Description: retrieveDescription(s),
		InputSchema: json.RawMessage(retrieveSchema),
		Annotations: tool.Annotations{Title: "Find tools", ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(false),
			IdempotentHint: tool.Bool(true), OpenWorldHint: tool.Bool(false)},
		Source: tool.BuiltinSource,
	}}
	for _, v := range tool.Variants {
		if !s.Allows(v) {
			continue
		}
		defs = append(defs, tool.Definition{
			Name:        tool.SplitToolName(v),
			Description: callDescription(v, s),
			InputSchema: callSchema(v, s.RequireDeclaration),
			Annotations: variantAnnotations(v),
			Source:      tool.BuiltinSource,
		})
	}
	return defs
}

// variantAnnotations are the MCP hints of call_tool_<v>, so a client can auto-approve the read
// door and ask for the others.
func variantAnnotations(v tool.Variant) tool.Annotations {
	switch v {
	case tool.VariantRead:
		return tool.Annotations{Title: "Call a read-only tool", ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(false)}
	case tool.VariantWrite:
		return tool.Annotations{Title: "Call a tool that writes", ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(false)}
	default:
		return tool.Annotations{Title: "Call a destructive tool", ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(true)}
	}
}

func retrieveDescription(s IntentSettings) string {
	d := "Search for tools this step can call (awf's built-in tools and the step's plugin tools). Results include annotations " +
		"(readOnlyHint, destructiveHint) and recommended call_with variant. Use call_tool_read for read-only operations, " +
		"call_tool_write for modifications, call_tool_destructive for deletions. Intent must match tool variant."
	if restricted(s) {
		d += " This step allows only " + orNone(s.Rule().AllowedSplitTools()) + "."
	}
	return d + " Without a query, lists the tools in order; limit defaults to 10 (at most 100)."
}

var variantPurpose = map[tool.Variant]string{
	tool.VariantRead:        "Execute a read-only tool discovered via retrieve_tools. Use for operations that query data without modifying state.",
	tool.VariantWrite:       "Execute a state-modifying tool discovered via retrieve_tools. Use for operations that create or update resources.",
	tool.VariantDestructive: "Execute a destructive tool discovered via retrieve_tools. Use for operations that delete or permanently modify resources.",
}

func callDescription(v tool.Variant, s IntentSettings) string {
	var b strings.Builder
	b.WriteString(variantPurpose[v])
	if s.RequireDeclaration {
		b.WriteString(" Requires intent.operation_type='" + string(v) + "'.")
	} else {
		b.WriteString(" The operation type is '" + string(v) + "'; a nested intent.operation_type, if given, must be '" + string(v) + "'.")
	}
	switch {
	case v == tool.VariantDestructive:
		b.WriteString(" Most permissive - allowed regardless of server annotations.")
	case !s.Strict:
		b.WriteString(" A call that contradicts the server's annotations is allowed with a recorded warning.")
	case v == tool.VariantRead:
		b.WriteString(" Will be rejected if server marks tool as destructive (or as not read-only).")
	default:
		b.WriteString(" Will be rejected if server marks tool as destructive.")
	}
	b.WriteString(" Pass the tool's arguments as args (an object) or args_json (a JSON string), not both." +
		" Optional intent_data_sensitivity and intent_reason are recorded with the call.")
	return b.String()
}

// restricted reports whether the step closes at least one variant.
func restricted(s IntentSettings) bool {
	for _, v := range tool.Variants {
		if !s.Allows(v) {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "no call_tool_* variant"
	}
	return s
}

const retrieveSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Words to look for in tool names and descriptions, e.g. \"read file\". Omit to list every tool."},` +
	`"limit":{"type":"integer","description":"Most results to return: 1 to 100, default 10."}}}`

// callSchema is the input schema of call_tool_<v>. Allowed values are stated in descriptions,
// not as enum or maxLength keywords, so that a bad value reaches the rule and gets the seed's
// message instead of a generic schema error.
func callSchema(v tool.Variant, require bool) json.RawMessage {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	intent := map[string]any{
		"type":        "object",
		"description": "Declared intent, recorded with the call.",
		"properties": map[string]any{
			"operation_type":   str("Must be \"" + string(v) + "\" (read, write or destructive: the variant of this tool)."),
			"data_sensitivity": str("public, internal, private or unknown."),
			"reason":           str("Why the call is made, at most 1000 characters."),
		},
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":                    str("Name of the tool to call, as listed by retrieve_tools."),
			"args":                    map[string]any{"type": "object", "description": "The tool's arguments as an object. Give args or args_json, not both."},
			"args_json":               str("The tool's arguments as a JSON-encoded object, e.g. \"{\\\"file_path\\\": \\\"a.txt\\\"}\". Give args or args_json, not both."),
			"intent_data_sensitivity": str("Sensitivity of the data involved: public, internal, private or unknown."),
			"intent_reason":           str("Why the call is made, for the audit trail; at most 1000 characters."),
			"intent":                  intent,
		},
		"required": []string{"name"},
	}
	if require {
		schema["required"] = []string{"name", "intent"}
		intent["required"] = []string{"operation_type"}
	}
	b, err := json.Marshal(schema)
	if err != nil { // maps of strings always encode
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// usageInstructions is the top-level guidance of retrieve_tools' answer (seed, adapted).
func usageInstructions(s IntentSettings) string {
	u := "Use call_tool_read for read-only operations, call_tool_write for modifications, call_tool_destructive for deletions. " +
		"Intent must match tool variant. Call the variant named in call_with with name set to the tool's name and the tool's " +
		"arguments in args (an object) or args_json (a JSON string)."
	if restricted(s) {
		u += " This step allows only " + orNone(s.Rule().AllowedSplitTools()) + "."
	}
	if s.RequireDeclaration {
		u += " Every call must also include intent: {\"operation_type\": \"<read|write|destructive>\"} equal to the variant."
	}
	return u
}
