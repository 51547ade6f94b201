package routing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// splitCall is a call_tool_* call taken apart: the tool to call, its own arguments, and what the
// agent declared.
type splitCall struct {
	name string
	args json.RawMessage // the tool's arguments, a JSON object; nil until known
	decl tool.Declaration
}

// splitParams are the parameters of call_tool_*, in the order messages list them.
var splitParams = []string{"name", "args", "args_json", "intent_data_sensitivity", "intent_reason", "intent"}

// intentKeys maps the accepted keys of the nested intent object to the field they fill. The
// intent_* spellings are accepted too: the seed's own documentation nests them that way.
var intentKeys = map[string]string{
	"operation_type":          "operation_type",
	"data_sensitivity":        "data_sensitivity",
	"reason":                  "reason",
	"intent_operation_type":   "operation_type",
	"intent_data_sensitivity": "data_sensitivity",
	"intent_reason":           "reason",
}

// argsAliases are names models use for the tool's arguments.
var argsAliases = map[string]bool{"arguments": true, "parameters": true, "params": true, "input": true, "tool_args": true}

// parseSplitCall reads the arguments of call_tool_<v>. It returns what it could read even when it
// also returns a problem, so the refusal is recorded under the right tool name and intent.
func parseSplitCall(v tool.Variant, raw json.RawMessage) (splitCall, *tool.Decision) {
	sc := splitCall{decl: tool.Declaration{Variant: v}}
	self := tool.SplitToolName(v)
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return sc, problem(v, fault.UserIntentMissingName, missingName(self))
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &params); err != nil || params == nil {
		return sc, problem(v, fault.UserIntentInvalidCall, fmt.Sprintf(
			`the arguments of %s must be a JSON object such as {"name": "Read", "args": {"file_path": "a.txt"}}`, self))
	}

	// The name first, so every later refusal is recorded under the tool the agent meant.
	var nameProblem *tool.Decision
	switch rawName, ok := params["name"]; {
	case !ok || isNull(rawName):
		nameProblem = problem(v, fault.UserIntentMissingName, missingName(self))
	default:
		if err := json.Unmarshal(rawName, &sc.name); err != nil {
			nameProblem = problem(v, fault.UserIntentInvalidCall, fmt.Sprintf("name of %s must be a string (the tool's name), got %s", self, jsonKind(rawName)))
		} else if strings.TrimSpace(sc.name) == "" {
			nameProblem = problem(v, fault.UserIntentMissingName, missingName(self))
		}
	}

	for _, k := range sortedKeys(params) {
		if !slices.Contains(splitParams, k) {
			return sc, problem(v, fault.UserIntentInvalidCall, unknownParam(self, k))
		}
	}
	if p := readIntent(&sc.decl, params, self); p != nil {
		return sc, p
	}
	args, p := readArgs(v, params)
	sc.args = args
	if nameProblem != nil {
		return sc, nameProblem
	}
	return sc, p
}

// readArgs returns the tool's arguments from args or args_json; none means {}.
func readArgs(v tool.Variant, params map[string]json.RawMessage) (json.RawMessage, *tool.Decision) {
	obj, hasObj := params["args"]
	str, hasStr := params["args_json"]
	hasObj = hasObj && !isNull(obj)
	hasStr = hasStr && !isNull(str)
	switch {
	case hasObj && hasStr:
		return nil, problem(v, fault.UserIntentArgsConflict,
			"args and args_json were both given: pass the tool's arguments once, either as an object in args or as a JSON string in args_json")
	case hasObj:
		if k := jsonKind(obj); k != "object" {
			return nil, problem(v, fault.UserIntentInvalidArgs, fmt.Sprintf(
				`args must be a JSON object holding the tool's arguments, such as {"file_path": "a.txt"}, got %s`, k))
		}
		return obj, nil
	case hasStr:
		var s string
		if err := json.Unmarshal(str, &s); err != nil {
			return nil, problem(v, fault.UserIntentInvalidArgs, fmt.Sprintf(
				"args_json must be a string holding a JSON object, got %s; to pass an object directly use args", jsonKind(str)))
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return emptyArgs, nil
		}
		if s[0] == '{' && json.Valid([]byte(s)) { // the common case, without decoding twice
			return json.RawMessage(s), nil
		}
		var val any
		if err := json.Unmarshal([]byte(s), &val); err != nil {
			return nil, problem(v, fault.UserIntentInvalidArgs, fmt.Sprintf(
				`args_json is not valid JSON (%v): give the tool's arguments as a JSON object string such as "{\"file_path\": \"a.txt\"}", or as an object in args`, err))
		}
		if _, ok := val.(map[string]any); !ok {
			return nil, problem(v, fault.UserIntentInvalidArgs, fmt.Sprintf(
				`args_json must hold a JSON object, got %s: give the tool's arguments as a JSON object string such as "{\"file_path\": \"a.txt\"}"`, jsonTypeOf(val)))
		}
		return json.RawMessage(s), nil
	default:
		return emptyArgs, nil
	}
}

// readIntent fills d from the flat intent_* parameters and the nested intent object.
func readIntent(d *tool.Declaration, params map[string]json.RawMessage, self string) *tool.Decision {
	v := d.Variant
	flat := map[string]string{}
	for _, k := range []string{"intent_data_sensitivity", "intent_reason"} {
		raw, ok := params[k]
		if !ok || isNull(raw) {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return problem(v, fault.UserIntentInvalidCall, fmt.Sprintf("%s of %s must be a string, got %s", k, self, jsonKind(raw)))
		}
		flat[strings.TrimPrefix(k, "intent_")] = s
	}
	nested := map[string]string{}
	if raw, ok := params["intent"]; ok && !isNull(raw) {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return problem(v, fault.UserIntentInvalidCall, fmt.Sprintf(
				`intent of %s must be an object such as {"operation_type": "%s", "reason": "why"}, got %s`, self, v, jsonKind(raw)))
		}
		d.Nested = true
		for _, k := range sortedKeys(obj) {
			field, known := intentKeys[k]
			if !known {
				return problem(v, fault.UserIntentInvalidCall, fmt.Sprintf(
					"intent has no field %q; its fields are operation_type, data_sensitivity and reason", clipName(k)))
			}
			if isNull(obj[k]) {
				continue
			}
			var s string
			if err := json.Unmarshal(obj[k], &s); err != nil {
				return problem(v, fault.UserIntentInvalidCall, fmt.Sprintf("intent.%s must be a string, got %s", field, jsonKind(obj[k])))
			}
			if prev, dup := nested[field]; dup && prev != s {
				return problem(v, fault.UserIntentConflict, fmt.Sprintf("intent gives %s twice with different values: give it once", field))
			}
			nested[field] = s
		}
	}
	for _, field := range []string{"data_sensitivity", "reason"} {
		if f, n := flat[field], nested[field]; f != "" && n != "" && f != n {
			return problem(v, fault.UserIntentConflict, fmt.Sprintf(
				"intent_%s and intent.%s differ: give the %s once, either flat or in the intent object", field, field, strings.ReplaceAll(field, "_", " ")))
		}
	}
	pick := func(field string) string {
		if s := flat[field]; s != "" {
			return s
		}
		return nested[field]
	}
	d.OperationType = nested["operation_type"]
	d.DataSensitivity = pick("data_sensitivity")
	d.Reason = pick("reason")
	return nil
}

func problem(v tool.Variant, code, msg string) *tool.Decision {
	return &tool.Decision{Verdict: tool.VerdictRefuse, Variant: v, Code: code, Message: msg}
}

func missingName(self string) string {
	return "name is required: give the name of the tool to call with " + self + ", as listed by retrieve_tools"
}

// unknownParam explains a parameter call_tool_* does not have, suggesting the likely one.
func unknownParam(self, k string) string {
	msg := fmt.Sprintf("%s has no parameter %q", self, clipName(k))
	switch {
	case argsAliases[k]:
		msg += ` (did you mean "args"?)`
	case closest(k, splitParams) != "":
		msg += fmt.Sprintf(" (did you mean %q?)", closest(k, splitParams))
	}
	return msg + "; its parameters are " + strings.Join(splitParams, ", ")
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// jsonKind names the JSON type of a raw value for a message.
func jsonKind(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "invalid JSON"
	}
	return jsonTypeOf(v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
