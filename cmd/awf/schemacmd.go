package main

import (
	"encoding/json"
	"slices"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func newSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema workflow",
		Short: "Print the JSON Schema of the workflow file, for editors and SchemaStore",
		Long: `Print the JSON Schema (draft 2020-12) of awf's workflow YAML: the top-level keys, the
states map and, for each state type, the keys it takes. It is built from the same key lists
awf validate checks, so an editor flags an unknown or misplaced key as you type; awf validate
remains the full check (templates, transitions, expressions). The schemas of the JSON outputs
are in docs/reference/schemas.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"workflow"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "workflow" {
				return fault.New(fault.UserCLIInvalidArgs, "unknown schema %q", args[0]).WithHint("awf schema workflow prints the workflow file's schema")
			}
			// a JSON Schema as editors read it: no schema_version of awf's outputs in it
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			return enc.Encode(workflowSchema())
		},
	}
}

// workflowTopKeys are the keys of a workflow file's top level, as awf validate accepts them.
var workflowTopKeys = []string{"name", "description", "version", "author", "tags", "env", "shell", "timeout", "inputs", "outputs", "hooks", "states"}

// workflowSchema is the JSON Schema of a workflow file. Keys are exact (an unknown key is an
// error in awf validate too); values are typed where every accepted form shares a type, and
// left open where awf takes several (a template or a number, a list or a text).
func workflowSchema() map[string]any {
	top := map[string]any{}
	for _, k := range workflowTopKeys {
		top[k] = keySchema(k)
	}
	top["name"] = map[string]any{"type": "string", "description": "the workflow's name, as awf run and awf list show it"}
	top["inputs"] = map[string]any{"type": "array", "items": map[string]any{
		"type": "object", "required": []string{"name"},
		"properties": map[string]any{"name": str(), "type": str(),
			"required": map[string]any{"type": "boolean"}, "default": map[string]any{}, "description": str(), "validation": obj()},
		"additionalProperties": false,
	}}
	top["states"] = map[string]any{
		"type": "object", "required": []string{"initial"},
		"properties":           map[string]any{"initial": map[string]any{"type": "string", "description": "the state the run starts in"}},
		"additionalProperties": map[string]any{"$ref": "#/$defs/state"},
	}
	defs := map[string]any{}
	var cases []any
	for _, k := range workflow.Kinds() {
		words := []string{}
		for _, w := range workflow.StateTypeNames {
			if t, ok := workflow.ParseStateType(w); ok && t == k {
				words = append(words, w)
			}
		}
		props := map[string]any{}
		for _, key := range workflow.StateKeys(k) {
			props[key] = keySchema(key)
		}
		props["type"] = map[string]any{"enum": words}
		if k == workflow.StateType("terminal") {
			props["status"] = map[string]any{"enum": []string{"success", "failure"}}
		}
		defs[string(k)] = map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"enum": words}}, "required": []string{"type"}},
			"then": map[string]any{"$ref": "#/$defs/" + string(k)},
		})
	}
	defs["state"] = map[string]any{
		"type": "object", "required": []string{"type"},
		"properties": map[string]any{"type": map[string]any{"enum": workflow.StateTypeNames}},
		"allOf":      cases,
	}
	return map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"title":   "awf workflow", "description": "A workflow file of awf (docs/reference/yaml.md).",
		"type": "object", "required": []string{"name", "states"},
		"properties": top, "additionalProperties": false, "$defs": defs,
	}
}

func str() map[string]any { return map[string]any{"type": "string"} }
func obj() map[string]any { return map[string]any{"type": "object"} }

// keySchema is the value schema of a key by its name, the same in every state that has it.
func keySchema(key string) map[string]any {
	switch {
	case slices.Contains([]string{"body", "parallel", "tags"}, key):
		return map[string]any{"type": "array", "items": str()}
	case key == "transitions":
		return map[string]any{"type": "array", "items": map[string]any{"type": "object",
			"properties": map[string]any{"when": str(), "goto": str()}, "required": []string{"goto"}, "additionalProperties": false}}
	case slices.Contains([]string{"timeout", "max_iterations", "max_concurrent", "version"}, key):
		return map[string]any{"type": []string{"string", "number"}}
	case key == "continue_on_error":
		return map[string]any{"type": []string{"boolean", "string"}}
	case key == "on_failure":
		// a state's name, or the reference's inline terminal {message, status}
		return map[string]any{"type": []string{"string", "object"}}
	case key == "env":
		// variables by name, or (top level, as the reference writes it) a list of names
		return map[string]any{"type": []string{"object", "array"}}
	case slices.Contains([]string{"hooks", "options", "mcp_proxy", "conversation", "capture", "retry"}, key):
		return obj()
	case slices.Contains([]string{"items", "inputs", "outputs", "output_format", "json"}, key):
		return map[string]any{} // a list, a map or a template, depending on the state
	}
	return str()
}
