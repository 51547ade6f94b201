package fakemodel

import "strings"

// nameMatches reports whether a CLI's tool name is the wanted bare name: equal, or ending in
// "_"+want ("/"+want for codex namespaces) after a non-empty prefix.
func nameMatches(want, name string) bool {
	if want == "" {
		return false
	}
	if name == want {
		return true
	}
	for _, sep := range []string{"_", "/"} {
		if strings.HasSuffix(name, sep+want) && len(name) > len(sep+want) {
			return true
		}
	}
	return false
}

// matchTool picks the offered name for a wanted tool. A prefixed name (a proxy's) wins over the
// bare name (a CLI built-in that happens to share it).
func matchTool(want string, offered []string) (string, bool) {
	bare := ""
	for _, name := range offered {
		if !nameMatches(want, name) {
			continue
		}
		if name != want {
			return name, true
		}
		bare = name
	}
	return bare, bare != ""
}

// awfTools anchor the prefix for forced calls: awf always serves some of them.
var awfTools = []string{"Read", "Write", "Edit", "Bash", "Glob", "Grep"}

// resolve gives the name to call for c among the offered tools. A forced call of a tool that is
// not offered borrows the prefix of an offered awf tool; it is only made when the request offers
// some awf tool (a side request without tools gets no forced call).
func (c ToolCall) resolve(offered []string) (string, bool) {
	if name, ok := matchTool(c.Name, offered); ok {
		return name, true
	}
	if !c.Force {
		return "", false
	}
	for _, o := range offered {
		for _, anchor := range awfTools {
			if o != anchor && nameMatches(anchor, o) { // a bare name is a CLI built-in
				return o[:len(o)-len(anchor)] + c.Name, true
			}
		}
	}
	return "", false
}

// jsonExample builds the smallest value that satisfies a JSON schema as CLIs use them for side
// requests (routing classifiers, next-speaker checks): required properties only, the first enum
// value, zero values otherwise. A nil schema gives "{}".
func jsonExample(schema map[string]any) string {
	v := exampleValue(schema, 0)
	b, err := marshalCompact(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func exampleValue(schema map[string]any, depth int) any {
	if schema == nil || depth > 8 {
		return map[string]any{}
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	if typ == "" {
		if list, ok := schema["type"].([]any); ok && len(list) > 0 {
			typ, _ = list[0].(string)
		}
	}
	switch strings.ToLower(typ) {
	case "string":
		return "ok"
	case "integer", "number":
		// Classifiers ask for scores like "1-100"; 0 is often out of range, so prefer the
		// minimum when given, else 1.
		if m, ok := schema["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	case "array":
		return []any{}
	case "null":
		return nil
	}
	props, _ := schema["properties"].(map[string]any)
	out := map[string]any{}
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	for name, p := range props {
		sub, _ := p.(map[string]any)
		if len(required) == 0 || required[name] {
			out[name] = exampleValue(sub, depth+1)
		}
	}
	return out
}
