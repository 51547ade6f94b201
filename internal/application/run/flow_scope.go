package run

import (
	"encoding/json"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"
)

// flowPos is where a scope sits inside loops and parallel states: the innermost loop's data,
// and the path shown with each step ("files[2]/checks").
type flowPos struct {
	loop   *loopData
	branch string // the parallel state whose branch this is, "" in a loop or at the top
	within string
}

// loopData is one iteration of a loop, as `.loop` shows it. Length is -1 for a while loop,
// whose end is unknown.
type loopData struct {
	state  string
	item   any
	index  int
	length int
	parent *loopData
}

// fields are the loop data in both spellings, as templates and expressions read them.
func (l *loopData) fields() map[string]any {
	m := map[string]any{}
	for _, k := range [][2]string{{"Item", "item"}, {"Index", "index"}, {"Index1", "index1"}, {"First", "first"}, {"Last", "last"}, {"Length", "length"}} {
		var v any
		switch k[0] {
		case "Item":
			v = l.item
		case "Index":
			v = l.index
		case "Index1":
			v = l.index + 1
		case "First":
			v = l.index == 0
		case "Last":
			v = l.length >= 0 && l.index == l.length-1
		case "Length":
			v = l.length
		}
		m[k[0]], m[k[1]] = v, v
	}
	if l.parent != nil {
		p := l.parent.fields()
		m["Parent"], m["parent"] = p, p
	}
	return m
}

func (s Scope) loop() *loopData {
	if s.flow == nil {
		return nil
	}
	return s.flow.loop
}

// withLoop returns s inside iteration index of loop state, the current loop becoming Parent.
func (s Scope) withLoop(state string, item any, index, length int) Scope {
	l := &loopData{state: state, item: item, index: index, length: length, parent: s.loop()}
	s.flow = &flowPos{loop: l, within: join(s.within(), state+"["+strconv.Itoa(index)+"]")}
	return s
}

// withBranch returns s as seen by a branch of parallel state: a Fork, so siblings do not see
// each other's results until the parallel state ends.
func (s Scope) withBranch(state string) Scope {
	f := s.Fork()
	f.flow = &flowPos{loop: s.loop(), branch: state, within: join(s.within(), state)}
	return f
}

// withFlow returns s placed where other is, keeping s's results: what a loop does after each
// iteration, to leave the iteration's loop data behind.
func (s Scope) withFlow(other Scope) Scope {
	s.flow = other.flow
	return s
}

// absorb returns s with the results recorded in child's own level (a branch's Fork).
func (s Scope) absorb(child Scope) Scope {
	for name, d := range child.states {
		s = s.WithState(name, *d)
	}
	return s
}

// within is the path of loop iterations and parallel states around the scope, "" at the top.
func (s Scope) within() string {
	if s.flow == nil {
		return ""
	}
	return s.flow.within
}

// label names a step for records that must tell iterations apart (activity records, proxy
// sessions): the name with each enclosing loop index, outermost first, "review[1][0]".
func (s Scope) label(name string) string {
	var idx []string
	for l := s.loop(); l != nil; l = l.parent {
		idx = append([]string{"[" + strconv.Itoa(l.index) + "]"}, idx...)
	}
	return name + strings.Join(idx, "")
}

// flowAttrs are the span attributes saying where a step runs in loops and parallel states.
func flowAttrs(s Scope) []attribute.KeyValue {
	var out []attribute.KeyValue
	if l := s.loop(); l != nil {
		out = append(out, attribute.String("awf.loop.state", l.state), attribute.Int("awf.loop.index", l.index))
	}
	if s.flow != nil && s.flow.branch != "" {
		out = append(out, attribute.String("awf.parallel.state", s.flow.branch))
	}
	return out
}

// flowFields are the log fields saying the same.
func flowFields(s Scope) []zap.Field {
	var out []zap.Field
	if l := s.loop(); l != nil {
		out = append(out, zap.String("loop", l.state), zap.Int("loop_index", l.index))
	}
	if s.flow != nil && s.flow.branch != "" {
		out = append(out, zap.String("parallel", s.flow.branch))
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}

// jsonObject and jsonList are loop items that are objects or lists: templates read their
// fields ({{.loop.Item.name}}) and print them as JSON, not as Go's map[…] notation.
type (
	jsonObject map[string]any
	jsonList   []any
)

func (o jsonObject) String() string { return jsonText(map[string]any(o)) }
func (l jsonList) String() string   { return jsonText([]any(l)) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<unprintable item>"
	}
	return string(b)
}

// itemValue converts a decoded item (from JSON or YAML) to what templates and expressions see:
// objects and lists print as JSON, whole numbers as integers.
func itemValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		o := make(jsonObject, len(x))
		for k, e := range x {
			o[k] = itemValue(e)
		}
		return o
	case []any:
		l := make(jsonList, len(x))
		for i, e := range x {
			l[i] = itemValue(e)
		}
		return l
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
