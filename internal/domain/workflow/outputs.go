package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Output is one entry of a workflow's top-level `outputs:`: a value the workflow hands back to
// a workflow that calls it, as the reference awf's called workflows declare them.
type Output struct {
	Name string
	// From says where the value comes from once the workflow succeeded: a reference such as
	// states.build.Output (as the reference awf writes it) or a template.
	From        string
	Description string
	// Pos is where the entry is.
	Pos fault.Position
}

// Template is From as a template: a bare reference is wrapped in {{ }}.
func (o Output) Template() string {
	from := strings.TrimSpace(o.From)
	if strings.Contains(from, "{{") {
		return from
	}
	return "{{." + strings.TrimPrefix(from, ".") + "}}"
}

// OutputNames lists the declared outputs' names in file order.
func (w *Workflow) OutputNames() []string {
	out := make([]string, 0, len(w.Outputs))
	for _, o := range w.Outputs {
		out = append(out, o.Name)
	}
	return out
}

// outputs checks the `outputs:` entries: each has a unique name and a `from` that refers to
// data the workflow has.
func (v *validator) outputs() {
	var seen []string
	for i, o := range v.w.Outputs {
		path := fmt.Sprintf("outputs[%d]", i)
		switch {
		case strings.TrimSpace(o.Name) == "":
			v.ds.Errorf(v.w.ValueAt(path), fault.UserWorkflowInvalidOutput, "add `name: <output name>`", "output #%d has no name", i+1)
		case slices.Contains(seen, o.Name):
			v.ds.Errorf(v.w.ValueAt(path+".name"), fault.UserWorkflowInvalidOutput, "give each output its own name", "output %q is declared twice", o.Name)
		}
		seen = append(seen, o.Name)
		if strings.TrimSpace(o.From) == "" {
			v.ds.Errorf(v.w.ValueAt(path), fault.UserWorkflowInvalidOutput, "add `from: states.<state>.Output`", "output %q has no from", o.Name)
			continue
		}
		v.outputFrom(v.w.ValueAt(path+".from"), o)
	}
}

func (v *validator) outputFrom(pos fault.Position, o Output) {
	refs, err := TemplateRefs(o.Template())
	if err != nil {
		v.ds.Errorf(pos, fault.UserTemplateSyntax, "write a reference such as states.build.Output", "from of output %q is not a valid reference: %v", o.Name, err)
		return
	}
	for _, r := range refs {
		v.ref(pos, fmt.Sprintf("from of output %q", o.Name), r)
	}
}
