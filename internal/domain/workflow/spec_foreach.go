package workflow

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// MaxConcurrentCap bounds how many iterations of a for_each run at once, so a typo cannot
// start thousands of processes together.
const MaxConcurrentCap = 64

// forEachStateKeys are the keys of a for_each state besides the common ones.
var forEachStateKeys = append([]string{"items", "max_concurrent"}, loopKeys...)

// ForEachSpec runs its body once per item of a list.
type ForEachSpec struct {
	LoopSpec
	// Items is a template rendering to a JSON list at run time ('["a", "b"]', "{{.inputs.files}}");
	// ItemList the list written in YAML, whose text items are templates. IsList tells which.
	Items    string
	ItemList []any
	IsList   bool
	// MaxConcurrent is how many items run side by side, each iteration's body in its own
	// scope; 0 (not written) and 1 run them one after another.
	MaxConcurrent int
}

// Kind implements Spec.
func (*ForEachSpec) Kind() StateType { return StateForEach }

func (f *ForEachSpec) validate(v *validator, s *State) {
	if !f.IsList {
		v.required(s, "items", f.Items, fault.UserWorkflowMissingItems, "add `items:` with a list, e.g. `items: [a, b]`, or a template giving a JSON list")
		f.validateItemsText(v, s)
	}
	if written(s, "max_concurrent") && (f.MaxConcurrent < 1 || f.MaxConcurrent > MaxConcurrentCap) {
		v.ds.Errorf(s.ValueAt("max_concurrent"), fault.UserWorkflowInvalidConcurrency, fmt.Sprintf("write a whole number from 1 to %d", MaxConcurrentCap),
			"max_concurrent of state %q is %d; it must be from 1 to %d", s.Name, f.MaxConcurrent, MaxConcurrentCap)
	}
	f.validateLoop(v, s)
}

// validateItemsText checks what can be known before the run of items written as text: without
// a template it is the list itself, and must be a JSON list now rather than fail the run after
// the states before the loop ran.
func (f *ForEachSpec) validateItemsText(v *validator, s *State) {
	text := strings.TrimSpace(f.Items)
	if m := soleInput().FindStringSubmatch(text); m != nil {
		f.validateItemsInput(v, s, m[1])
		return
	}
	if text == "" || strings.Contains(text, "{{") {
		return
	}
	var list []any
	if err := json.Unmarshal([]byte(text), &list); err != nil {
		v.ds.Errorf(s.ValueAt("items"), fault.UserWorkflowInvalidItems,
			"write a YAML list (`items: [a, b]`), a JSON list ('[\"a\", \"b\"]'), or a template giving one, e.g. `items: '{{lines .states.ls.Output}}'` for one item per line",
			"items of for_each state %q is neither a list nor a template: %s", s.Name, quoteExcerpt(text))
	}
}

// soleInput matches items that are one input and nothing else: {{.inputs.files}}.
var soleInput = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\{\{-?\s*\.?inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}$`)
})

// validateItemsInput refuses items that are an input whose type can never give a list: a
// number or a boolean prints as itself, never as a JSON list.
func (f *ForEachSpec) validateItemsInput(v *validator, s *State, name string) {
	for _, in := range v.w.Inputs {
		if in.Name != name {
			continue
		}
		switch in.Type {
		case InputInteger, InputNumber, InputBoolean:
			v.ds.Errorf(s.ValueAt("items"), fault.UserWorkflowInvalidItems,
				fmt.Sprintf("declare input %q with `type: array`, or give items a list", name),
				"items of for_each state %q is input %q, of type %s, which is never a list", s.Name, name, in.Type)
		}
	}
}

// quoteExcerpt quotes at most 80 bytes of s for a message.
func quoteExcerpt(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%q…", s[:80])
	}
	return fmt.Sprintf("%q", s)
}

func (f *ForEachSpec) templates() []templateField {
	out := []templateField{{"items", f.Items}}
	for i, it := range f.ItemList {
		if text, ok := it.(string); ok {
			out = append(out, templateField{fmt.Sprintf("items[%d]", i), text})
		}
	}
	return append(out, f.loopTemplates()...)
}
