package openai

import (
	"fmt"
	"strconv"
)

// The conversation a step keeps is bounded: it is sent back in full on every turn, so without a
// bound a model asking for 256 Reads of a large file per turn grows it (and each request body)
// by tens of MiB a turn; the probe in docs/decisions/0011-values-are-data-secrets-are-masked.md took 1.37 GB in five turns.
const (
	// maxConversationBytes bounds what the kept conversation holds: the prompt, the model's
	// answers, its tool-call arguments and the tool results. 8 MiB is several times the context
	// window of any model served today (about 1 MB of text for 200k tokens).
	maxConversationBytes = 8 << 20
	// maxKeptArguments bounds the arguments of one tool call as kept in the conversation (the
	// call itself runs with all of them).
	maxKeptArguments = 64 << 10
)

// budget counts the bytes of the kept conversation.
type budget struct {
	used, limit int
}

func newBudget() budget { return budget{limit: maxConversationBytes} }

// charge counts n bytes that are kept whatever happens (the prompt, the model's text).
func (b *budget) charge(n int) { b.used += n }

// keepArguments returns the arguments to keep for a call: args itself, or, when they are longer
// than maxKeptArguments or would take the conversation over its budget, a small JSON object
// saying they were left out (the API requires valid JSON there).
func (b *budget) keepArguments(args string) string {
	if len(args) <= maxKeptArguments && b.used+len(args) <= b.limit {
		b.used += len(args)
		return args
	}
	kept := `{"awf_elided":"` + strconv.Itoa(len(args)) + ` bytes of arguments left out of the conversation to bound its size"}`
	b.used += len(kept)
	return kept
}

// keepResult returns the tool result to keep: text itself, or, when it would take the
// conversation over its budget, a note the model can act on.
func (b *budget) keepResult(text string) string {
	if b.used+len(text) <= b.limit {
		b.used += len(text)
		return text
	}
	note := fmt.Sprintf("ERROR: this tool result (%d bytes) was left out: the conversation of this step has reached awf's budget of %d MiB, "+
		"so no more large results fit. Ask for less: Read with offset and limit, narrower Grep patterns with head_limit, fewer calls per turn; "+
		"or answer with what you have.", len(text), b.limit>>20)
	b.used += len(note)
	return note
}
