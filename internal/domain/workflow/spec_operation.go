package workflow

import (
	"sort"
	"strconv"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// operationStateKeys are the keys of an operation state besides the common ones.
var operationStateKeys = []string{"operation", "inputs", "timeout", "on_success", "on_failure", "transitions", "retry"}

// OperationSpec is what an operation state runs: a built-in operation (http.request) or an
// operation of a gRPC plugin declared in .awf/plugins.yaml, written <plugin>.<operation>.
type OperationSpec struct {
	Operation string
	// Inputs are the operation's arguments. Every string inside, however deep, is a template
	// rendered in the run's scope as data (never as shell); other values pass as written.
	Inputs map[string]any
}

// Kind implements Spec.
func (*OperationSpec) Kind() StateType { return StateOperation }

func (o *OperationSpec) validate(v *validator, s *State) {
	v.required(s, "operation", o.Operation, fault.UserOperationMissing, "add `operation: http.request` or `operation: <plugin>.<operation>`")
}

func (o *OperationSpec) templates() []templateField {
	var out []templateField
	walkStrings("inputs", o.Inputs, func(path, text string) { out = append(out, templateField{path, text}) })
	return out
}

// walkStrings calls f with the dotted path of every string inside v, in key order.
func walkStrings(path string, v any, f func(path, text string)) {
	switch x := v.(type) {
	case string:
		f(path, x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkStrings(path+"."+k, x[k], f)
		}
	case []any:
		for i, e := range x {
			walkStrings(path+"["+strconv.Itoa(i)+"]", e, f)
		}
	}
}

// Operation returns the spec of an operation state, nil for any other kind.
func (s *State) Operation() *OperationSpec {
	o, _ := s.spec().(*OperationSpec)
	return o
}
