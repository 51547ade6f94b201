package workflow

import (
	"fmt"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// forEachStateKeys are the keys of a for_each state besides the common ones.
var forEachStateKeys = append([]string{"items"}, loopKeys...)

// ForEachSpec runs its body once per item of a list.
type ForEachSpec struct {
	LoopSpec
	// Items is a template rendering to a JSON list at run time ('["a", "b"]', "{{.inputs.files}}");
	// ItemList the list written in YAML, whose text items are templates. IsList tells which.
	Items    string
	ItemList []any
	IsList   bool
}

// Kind implements Spec.
func (*ForEachSpec) Kind() StateType { return StateForEach }

func (f *ForEachSpec) validate(v *validator, s *State) {
	if !f.IsList {
		v.required(s, "items", f.Items, fault.UserWorkflowMissingItems, "add `items:` with a list, e.g. `items: [a, b]`, or a template giving a JSON list")
	}
	f.validateLoop(v, s)
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
