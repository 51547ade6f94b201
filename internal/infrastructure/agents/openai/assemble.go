package openai

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Limits of one assistant turn. A server that exceeds them is broken or hostile; awf stops with a
// clear error instead of growing without bound.
const (
	maxToolCallsPerTurn = 256
	maxTurnBytes        = 32 << 20 // content plus all arguments
)

// Turn is one assistant answer, assembled from its stream.
type Turn struct {
	Content      string
	ToolCalls    []ToolCall // in index order
	FinishReason string
	Model        string
	// Usage is what the server reported; UsageSeen is false when it reported none.
	PromptTokens, CompletionTokens int
	UsageSeen                      bool
}

// partialCall is a tool call being assembled.
type partialCall struct {
	index int
	id    string
	name  strings.Builder
	args  strings.Builder
}

// Assembler builds a Turn from stream chunks. Content deltas are concatenated; tool-call deltas
// are grouped by their index, the id and name taken from the first piece that has them (a server
// that repeats the name on every piece is not doubled), the arguments concatenated over any
// number of pieces. Only choice 0 is read: awf never asks for more than one.
type Assembler struct {
	content  strings.Builder
	calls    map[int]*partialCall
	lastIdx  int
	finish   string
	model    string
	usage    *usage
	size     int
	finished bool
}

// NewAssembler returns an empty assembler.
func NewAssembler() *Assembler { return &Assembler{calls: map[int]*partialCall{}, lastIdx: -1} }

// add folds one parsed chunk into the turn.
func (a *Assembler) add(c *chunk) error {
	if c.Error != nil {
		return fmt.Errorf("the server reported an error: %s", c.Error.describe())
	}
	if c.Model != "" && a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		u := *c.Usage
		a.usage = &u
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := ch.Delta
		if d == nil {
			d = ch.Message
		}
		if d != nil {
			if err := a.addDelta(d); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
			a.finished = true
		}
	}
	return nil
}

func (a *Assembler) addDelta(d *delta) error {
	if d.Content != nil {
		if err := a.grow(len(*d.Content)); err != nil {
			return err
		}
		a.content.WriteString(*d.Content)
	}
	for i := range d.ToolCalls {
		td := &d.ToolCalls[i]
		idx := a.indexOf(td)
		pc, ok := a.calls[idx]
		if !ok {
			if len(a.calls) >= maxToolCallsPerTurn {
				return fmt.Errorf("the model asked for more than %d tool calls in one turn", maxToolCallsPerTurn)
			}
			pc = &partialCall{index: idx}
			a.calls[idx] = pc
		}
		a.lastIdx = idx
		if pc.id == "" && td.ID != "" {
			pc.id = td.ID
		}
		if name := td.Function.Name; name != "" && name != pc.name.String() {
			if err := a.grow(len(name)); err != nil {
				return err
			}
			pc.name.WriteString(name)
		}
		args := argumentText(td.Function.Arguments)
		if err := a.grow(len(args)); err != nil {
			return err
		}
		pc.args.WriteString(args)
	}
	return nil
}

// indexOf places a tool-call delta. With an index, that index. Without one (a few servers), a
// delta with a new id starts a new call and any other continues the last call.
func (a *Assembler) indexOf(td *toolCallDelta) int {
	if td.Index != nil {
		return *td.Index
	}
	if td.ID != "" {
		for idx, pc := range a.calls {
			if pc.id == td.ID {
				return idx
			}
		}
		return a.nextIndex()
	}
	if a.lastIdx >= 0 {
		return a.lastIdx
	}
	return a.nextIndex()
}

func (a *Assembler) nextIndex() int {
	next := 0
	for idx := range a.calls {
		if idx >= next {
			next = idx + 1
		}
	}
	return next
}

func (a *Assembler) grow(n int) error {
	a.size += n
	if a.size > maxTurnBytes {
		return fmt.Errorf("the answer is larger than %d MiB", maxTurnBytes>>20)
	}
	return nil
}

// Turn returns what was assembled. Calls without an id get a stable one (call_<index>) so their
// results can still be matched; calls whose arguments are empty get "{}".
func (a *Assembler) Turn() Turn {
	t := Turn{Content: a.content.String(), FinishReason: a.finish, Model: a.model}
	if a.usage != nil {
		t.PromptTokens, t.CompletionTokens, t.UsageSeen = a.usage.PromptTokens, a.usage.CompletionTokens, true
	}
	idxs := make([]int, 0, len(a.calls))
	for idx := range a.calls {
		idxs = append(idxs, idx)
	}
	sort.Ints(idxs)
	seen := map[string]bool{}
	for _, idx := range idxs {
		pc := a.calls[idx]
		id := pc.id
		if id == "" || seen[id] {
			id = "call_" + strconv.Itoa(idx)
			for seen[id] {
				id += "_"
			}
		}
		seen[id] = true
		args := pc.args.String()
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		t.ToolCalls = append(t.ToolCalls, ToolCall{ID: id, Type: "function", Function: FunctionCall{Name: pc.name.String(), Arguments: args}})
	}
	return t
}

// Finished reports whether a finish_reason was seen.
func (a *Assembler) Finished() bool { return a.finished }

func (e *apiError) describe() string {
	msg := strings.TrimSpace(e.Message)
	if msg == "" {
		msg = "no message"
	}
	if e.Type != "" {
		msg += " (type " + e.Type + ")"
	}
	return msg
}
