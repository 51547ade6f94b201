// Package toolscan reads what a plugin or bridged MCP server says about its own tools (name,
// title, description, schema texts, annotations) before awf trusts it: hidden characters,
// instructions aimed at the model, references to other tools or to credential files, names
// that shadow another tool, annotations that contradict the name, and secrets. A high finding
// keeps the tool out of a step until the user accepts it in .awf/plugins.lock
// (docs/decisions/0013-bridged-mcp-servers.md). It only reads text: no I/O.
package toolscan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity ranks a finding: a high one keeps the tool out of every step until accepted.
type Severity string

// Severities, from the one that gates a tool down.
const (
	High   Severity = "high"
	Medium Severity = "medium"
	Low    Severity = "low"
)

func (s Severity) rank() int {
	switch s {
	case High:
		return 0
	case Medium:
		return 1
	}
	return 2
}

// Tool is one tool definition as its server lists it. Hints are the server's annotations, nil
// when the user's plugins.yaml overrides them (the user's word is not the server's claim).
type Tool struct {
	Server      string // the plugin's name in plugins.yaml
	Name        string // the server's name for the tool, not the prefixed one
	Title       string
	Description string
	// OutputDescription is what a gRPC plugin says its result holds.
	OutputDescription string
	// InputSchema and OutputSchema are scanned string by string (descriptions, titles, enums,
	// defaults); nil or invalid JSON is skipped.
	InputSchema, OutputSchema json.RawMessage
	// AnnotationsTitle is annotations.title.
	AnnotationsTitle string
	ReadOnlyHint     *bool
	DestructiveHint  *bool
}

// Finding is one rule that a tool's definition breaks. Text is escaped: it holds no control,
// format or direction-changing character, so it is safe on a terminal and in any report.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Server   string   `json:"server"`
	Tool     string   `json:"tool"`
	// Field is where the text is: name, title, description, annotations, inputSchema.<path> …
	Field   string `json:"field"`
	Message string `json:"message"`
	Text    string `json:"text"`
}

// String is the finding on one line, for a terminal.
func (f Finding) String() string {
	return fmt.Sprintf("%s [%s] %s/%s %s: %s: %s", f.Severity, f.Rule, Escape(f.Server), Escape(f.Tool), f.Field, f.Message, f.Text)
}

// field is one piece of text of a definition and where it is.
type field struct{ where, text string }

// fields lists every text of t that reaches the model.
func (t Tool) fields() []field {
	fs := []field{{"name", t.Name}, {"title", t.Title}, {"description", t.Description}, {"outputDescription", t.OutputDescription}, {"annotations.title", t.AnnotationsTitle}}
	fs = appendSchema(fs, "inputSchema", t.InputSchema)
	return appendSchema(fs, "outputSchema", t.OutputSchema)
}

// appendSchema adds every string of a JSON schema (keys too: a property name is text the model
// reads), in a stable order.
func appendSchema(fs []field, where string, raw json.RawMessage) []field {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return fs
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string:
			fs = append(fs, field{path, x})
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fs = append(fs, field{path + ".<key>", k})
				walk(path+"."+Escape(k), x[k]) // the path is printed: a key is the server's text
			}
		}
	}
	walk(where, v)
	return fs
}

// Scan checks every tool against every rule. A tool is also checked against the others: a name
// or text that shadows another server's tool. Findings are ordered by severity, server, tool,
// rule and field.
func Scan(tools []Tool) []Finding {
	var out []Finding
	for _, t := range tools {
		out = append(out, scanTool(t, tools)...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Severity.rank(), b.Severity.rank()), strings.Compare(a.Server, b.Server),
			strings.Compare(a.Tool, b.Tool), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Field, b.Field))
	})
	return out
}

// scanTool runs the rules over one tool; all is every tool scanned with it.
func scanTool(t Tool, all []Tool) []Finding {
	others := otherNames(t, all)
	var out []Finding
	add := func(rule, where, msg, text string) {
		out = append(out, Finding{Rule: rule, Severity: Rules[rule].Severity, Server: t.Server, Tool: t.Name, Field: where, Message: msg, Text: text})
	}
	for _, f := range t.fields() {
		if f.text == "" {
			continue
		}
		if msg, text, ok := hiddenChars(f.text); ok {
			add(RuleHiddenCharacters, f.where, msg, text)
		}
		plain := visible(f.text)
		for _, c := range textRules {
			if c.name && f.where == "name" {
				continue // the name rules below say it better
			}
			if msg, text, ok := c.check(plain, others); ok {
				add(c.rule, f.where, msg, text)
			}
		}
	}
	if msg, ok := shadowsBuiltin(t.Name); ok {
		add(RuleShadowsBuiltin, "name", msg, Escape(t.Name))
	}
	if msg, ok := shadowsOther(t.Name, others); ok {
		add(RuleShadowsServerTool, "name", msg, Escape(t.Name))
	}
	if msg, ok := annotationMismatch(t); ok {
		add(RuleAnnotationMismatch, "annotations", msg, Escape(t.Name))
	}
	return out
}

// textRules run on every text of a definition, hidden characters removed; name marks the
// ones that a tool's own name does not go through.
var textRules = []struct {
	rule  string
	name  bool
	check func(s string, others []otherName) (msg, text string, ok bool)
}{
	{RuleModelInstructions, false, func(s string, _ []otherName) (string, string, bool) { return instructions(s) }},
	{RuleCredentialPath, false, func(s string, _ []otherName) (string, string, bool) { return credentialPath(s) }},
	{RuleBuiltinReference, true, func(s string, _ []otherName) (string, string, bool) { return builtinReference(s) }},
	{RuleToolReference, true, otherToolReference},
	{RuleSecret, false, func(s string, _ []otherName) (string, string, bool) { return secret(s) }},
}

// HasHigh reports whether any of fs is high for the tool of server.
func HasHigh(fs []Finding, server, tool string) bool {
	for _, f := range fs {
		if f.Severity == High && f.Server == server && f.Tool == tool {
			return true
		}
	}
	return false
}

// Escape makes s safe to print: every control, format (zero-width, direction-changing, tag),
// line-separator or invisible character becomes \uXXXX, and a backslash is doubled, so two
// different texts never print alike.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case invisible(r) || r == utf8.RuneError:
			if hex := fmt.Sprintf("%04X", r); len(hex) > 4 {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				b.WriteString(`\u` + hex)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
