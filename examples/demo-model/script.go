package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The script's fixed inputs. The Bash command targets a path nobody uses, so even a step that
// allows destructive calls loses nothing when it runs.
const (
	readPath      = "README.md"
	grepPattern   = "awf"
	bashCommand   = "rm -rf /tmp/awf-demo-should-not-run"
	noteKey       = "awf-demo/quickstart"
	noteText      = "Written by awf's scripted demo model through the notes plugin."
	honestPreface = "This answer comes from awf's scripted demo model (examples/demo-model): no language model was involved. It follows a fixed script to show every tool call going through awf's router."
)

// Tool-call ids the script gives its calls. The script is stateless: it finds what it already
// did by looking for the results of these ids in the conversation.
const (
	idRead     = "demo_read"
	idGrep     = "demo_grep"
	idDiscover = "demo_retrieve_tools"
	idBash     = "demo_bash"
	idNotesPut = "demo_notes_put"
	idNotesGet = "demo_notes_get"
)

// call is one tool call the script asks for.
type call struct {
	id, name string
	args     map[string]any
}

// reply is the script's next assistant message: tool calls, or a final text.
type reply struct {
	calls []call
	text  string
}

// conversation is what the script reads from a request.
type conversation struct {
	offered map[string]json.RawMessage // tool name → its parameters schema
	results map[string]string          // tool_call_id → result text
}

func readConversation(req chatRequest) conversation {
	c := conversation{offered: map[string]json.RawMessage{}, results: map[string]string{}}
	for _, t := range req.Tools {
		c.offered[t.Function.Name] = t.Function.Parameters
	}
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID != "" {
			c.results[m.ToolCallID] = m.text()
		}
	}
	return c
}

// split reports whether the step uses the intent split (four tools instead of tools by name).
func (c conversation) split() bool {
	_, ok := c.offered["call_tool_read"]
	return ok
}

func (c conversation) done(ids ...string) bool {
	for _, id := range ids {
		if _, ok := c.results[id]; ok {
			return true
		}
	}
	return false
}

// via addresses a tool by name: directly, or through call_tool_<variant> in split mode.
func (c conversation) via(id, name, variant string, args map[string]any) call {
	if c.split() {
		return call{id: id, name: "call_tool_" + variant, args: map[string]any{"name": name, "args": args}}
	}
	return call{id: id, name: name, args: args}
}

// available reports whether a tool can be called: offered by name, or in split mode listed by
// the retrieve_tools result of the first turn.
func (c conversation) available(name string) bool {
	if _, ok := c.offered[name]; ok {
		return true
	}
	return c.split() && strings.Contains(c.results[idDiscover], name)
}

// next decides the script's next message from the conversation alone:
//  1. Read README.md and Grep for "awf" (in parallel, one turn), plus retrieve_tools in split mode;
//  2. Bash `rm -rf /tmp/awf-demo-should-not-run`, asked for even when Bash is not offered, so the
//     router's refusal under `allow: [read, write]` is visible;
//  3. notes_put, then 4. notes_get, when the notes plugin's tools are there;
//  5. a final answer quoting what each call returned.
//
// Only tools that are offered are called, except the deliberate Bash call. Without any tools the
// script answers at once.
func next(req chatRequest) reply {
	c := readConversation(req)
	if len(c.offered) == 0 {
		return reply{text: honestPreface + "\n\nNo tools were offered in this request, so there was nothing to demonstrate."}
	}
	if !c.done(idRead, idGrep, idDiscover) {
		var calls []call
		if c.available("Read") || c.split() {
			calls = append(calls, c.via(idRead, "Read", "read", map[string]any{"file_path": readPath, "limit": 5}))
		}
		if c.available("Grep") || c.split() {
			calls = append(calls, c.via(idGrep, "Grep", "read", map[string]any{"pattern": grepPattern, "output_mode": "files_with_matches", "head_limit": 5}))
		}
		if _, ok := c.offered["retrieve_tools"]; ok {
			calls = append(calls, call{id: idDiscover, name: "retrieve_tools", args: map[string]any{"query": "notes", "limit": 10}})
		}
		if len(calls) > 0 {
			return reply{calls: calls}
		}
	}
	if !c.done(idBash) {
		return reply{calls: []call{c.via(idBash, "Bash", "destructive", map[string]any{
			"command": bashCommand, "description": "deliberately destructive demo call"})}}
	}
	if c.available("notes_put") && !c.done(idNotesPut) {
		return reply{calls: []call{c.via(idNotesPut, "notes_put", "write", map[string]any{"key": noteKey, textField(c.offered["notes_put"]): noteText})}}
	}
	if c.available("notes_get") && !c.done(idNotesGet) {
		return reply{calls: []call{c.via(idNotesGet, "notes_get", "read", map[string]any{"key": noteKey})}}
	}
	return reply{text: summary(c)}
}

// textField is the name of the note body in notes_put's schema: "text" unless the schema says
// "value".
func textField(schema json.RawMessage) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) == nil {
		if _, ok := s.Properties["text"]; !ok {
			if _, ok := s.Properties["value"]; ok {
				return "value"
			}
		}
	}
	return "text"
}

// summary is the final answer: what each call of the script got back.
func summary(c conversation) string {
	var b strings.Builder
	b.WriteString(honestPreface + "\n\nWhat the tools returned:\n")
	line := func(label, id string, show func(string) string) {
		r, ok := c.results[id]
		switch {
		case !ok:
			return
		case strings.HasPrefix(r, "ERROR:"):
			fmt.Fprintf(&b, "- %s: refused or failed: %q\n", label, clip(firstLine(strings.TrimSpace(strings.TrimPrefix(r, "ERROR:")))))
		default:
			fmt.Fprintf(&b, "- %s: %s\n", label, show(r))
		}
	}
	line("Read "+readPath, idRead, func(r string) string {
		return fmt.Sprintf("first line %q", clip(stripLineNumber(firstLine(r))))
	})
	line(fmt.Sprintf("Grep %q", grepPattern), idGrep, func(r string) string {
		n := len(nonEmptyLines(r))
		return fmt.Sprintf("%q and %d more line(s)", clip(firstLine(r)), max(n-1, 0))
	})
	line("retrieve_tools \"notes\"", idDiscover, func(r string) string { return fmt.Sprintf("%d bytes of matches", len(r)) })
	line("Bash `"+bashCommand+"`", idBash, func(r string) string {
		return "ran (awf offered Bash to this step): " + fmt.Sprintf("%q", clip(firstLine(r)))
	})
	line("notes_put "+noteKey, idNotesPut, func(r string) string { return fmt.Sprintf("%q", clip(firstLine(r))) })
	line("notes_get "+noteKey, idNotesGet, func(r string) string { return fmt.Sprintf("%q", clip(firstLine(r))) })
	return strings.TrimRight(b.String(), "\n")
}

var lineNumber = regexp.MustCompile(`^\s*\d+\t`)

// stripLineNumber removes the "cat -n" prefix Read puts on each line.
func stripLineNumber(s string) string { return lineNumber.ReplaceAllString(s, "") }

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return strings.TrimRight(l, "\r")
		}
	}
	return ""
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// clip keeps a quoted result short.
func clip(s string) string {
	const n = 400
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
