package fakemodel

import (
	"fmt"
	"strings"
)

// ToolCall is one tool the fake asks the CLI to call: Name is awf's bare tool name ("Read"),
// matched against the CLI's prefixed names (see the package doc); Args are sent as given.
type ToolCall struct {
	Name string
	Args map[string]any
	// Force calls the tool even when the CLI does not offer it (a tool the step's intent.allow
	// hides), to test that the proxy refuses and records it. The name is spelled like the
	// offered proxy tools: the prefix of an offered name that ends in one of awf's tool names
	// ("mcp__awf__" from "mcp__awf__Read") is put before Name.
	Force bool
}

// Script says what the fake model does in every conversation. Each request is answered by these
// rules, in order, from the request alone:
//
//  1. If the request carries tool results or earlier calls of wanted tools, the conversation is
//     under way: call the next wanted tool that the history does not show as called yet, if it is
//     offered (or forced, see [ToolCall.Force]); otherwise answer FinalText followed by a quote
//     of every tool result received.
//  2. Else, if the first wanted tool is offered (or forced), call it.
//  3. Else answer plain text (side requests: titles, routing) — or, when the request demands JSON
//     matching a schema, a minimal object that satisfies it.
type Script struct {
	// WantTools are called in order, each once.
	WantTools []ToolCall
	// FinalText opens the final answer; the quoted tool results follow it.
	FinalText string
}

// replyKind is what the fake sends back.
type replyKind int

const (
	replyText replyKind = iota
	replyTool
)

// reply is the dialect-neutral answer: either text or one tool call.
type reply struct {
	kind replyKind
	text string
	// tool is the offered name to call (as the CLI spelled it), args its input.
	tool string
	args map[string]any
	// final marks text that is the script's final answer (not a side-request filler).
	final bool
}

// turn is the dialect-neutral view of one request.
type turn struct {
	offered []string
	// called are the tool names the history shows the model calling, in order.
	called []string
	// results are the texts of tool results in the history, in order.
	results []string
	// jsonSchema is set when the request demands a JSON answer (nil schema: any object).
	wantsJSON  bool
	jsonSchema map[string]any
}

// decide applies the Script's rules to one request.
func (s Script) decide(t turn) reply {
	next := s.calledSoFar(t.called)
	underway := len(t.results) > 0 || next > 0
	if underway {
		if next < len(s.WantTools) {
			if name, ok := s.WantTools[next].resolve(t.offered); ok {
				return reply{kind: replyTool, tool: name, args: s.WantTools[next].Args}
			}
		}
		return reply{kind: replyText, text: s.finalText(t.results), final: true}
	}
	if len(s.WantTools) > 0 {
		if name, ok := s.WantTools[0].resolve(t.offered); ok {
			return reply{kind: replyTool, tool: name, args: s.WantTools[0].Args}
		}
	}
	if t.wantsJSON {
		return reply{kind: replyText, text: jsonExample(t.jsonSchema)}
	}
	return reply{kind: replyText, text: sideText(s, t.offered)}
}

// calledSoFar counts the leading wanted tools that the history shows as called, in order.
func (s Script) calledSoFar(called []string) int {
	n := 0
	for _, c := range called {
		if n < len(s.WantTools) && nameMatches(s.WantTools[n].Name, c) {
			n++
		}
	}
	return n
}

// finalText is FinalText plus every tool result, quoted line by line so markers survive intact.
func (s Script) finalText(results []string) string {
	var b strings.Builder
	b.WriteString(s.FinalText)
	for i, r := range results {
		fmt.Fprintf(&b, "\n\nTool result %d:\n", i+1)
		for _, line := range strings.Split(strings.TrimRight(r, "\n"), "\n") {
			b.WriteString("> ")
			b.WriteString(line)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// sideText answers a request that offers none of the wanted tools. It names what was offered, so
// a main request that lost its tools is diagnosable from the CLI's output.
func sideText(s Script, offered []string) string {
	var want []string
	for _, w := range s.WantTools {
		want = append(want, w.Name)
	}
	if len(want) == 0 {
		return "fakemodel: ok"
	}
	return fmt.Sprintf("fakemodel: none of the wanted tools %v is offered here (offered: %v)", want, offered)
}
