package yamlrepo

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// ruleKeys are the keys of an input's `validation:` block, as the reference awf names them.
var ruleKeys = []string{"pattern", "enum", "min", "max", "file_exists", "file_extension"}

// inputRules decodes an input's `validation:` block, recording where each rule and each enum
// value and extension is written under path ("inputs[0].validation"). Whether the rules fit the
// input's type is the domain validator's to say; here only their shapes are read.
func (l *loader) inputRules(t workflow.InputType, n *yaml.Node, pm posMaps, path string) *workflow.InputRules {
	if strictyaml.IsNull(l.Resolve(n)) {
		return nil
	}
	r := &workflow.InputRules{}
	b := block{"validation", "`validation: {pattern: '^v[0-9]+$'}`", ruleKeys, fault.UserWorkflowUnknownKey, "in an input's validation"}
	l.fields(n, b, pm, path+".", func(e entry) {
		switch e.Key {
		case "pattern":
			r.Pattern = l.str(e.V, "validation pattern")
		case "enum":
			r.Enum = l.enum(t, e.V, pm, path+".enum")
		case "min":
			r.Min = l.bound(e.V, "min")
		case "max":
			r.Max = l.bound(e.V, "max")
		case "file_exists":
			r.FileExists = l.boolean(e.V, "file_exists", false)
		case "file_extension":
			var pos []fault.Position
			r.FileExtension, pos, _ = l.strList(e.V, "file_extension", "`file_extension: [.yaml, .yml]`")
			for i, p := range pos {
				pm.values[fmt.Sprintf("%s.file_extension[%d]", path, i)] = p
			}
		}
	})
	return r
}

// enum reads the allowed values. For string and array inputs a scalar is taken as written (so
// `enum: [8080, 9090]` allows the texts "8080" and "9090"); otherwise the YAML type is kept and
// validation compares it with the input's type.
func (l *loader) enum(t workflow.InputType, n *yaml.Node, pm posMaps, path string) []any {
	items, ok := l.sequence(n, "enum", "`enum: [dev, staging, prod]`")
	if !ok {
		return nil
	}
	out := make([]any, 0, len(items))
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		pm.values[p] = l.Pos(it)
		r := l.Resolve(it)
		textual := t == "" || t == workflow.InputString || t == workflow.InputArray
		if textual && r != nil && r.Kind == yaml.ScalarNode && !strictyaml.IsNull(r) {
			out = append(out, r.Value)
			continue
		}
		out = append(out, l.value(it, p, 0, nil))
	}
	return out
}

// bound reads min or max: an integer or a decimal number.
func (l *loader) bound(n *yaml.Node, what string) any {
	r := l.Resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && (r.Tag == "!!int" || r.Tag == "!!float") {
		if v := scalar(r); v != nil {
			if _, isText := v.(string); !isText {
				return v
			}
		}
	}
	got := "nothing"
	if r != nil {
		got = strictyaml.KindName(r)
	}
	l.Invalid(n, "write a number without quotes, e.g. `"+what+": 10`", "%s must be a number, got %s", what, got)
	return nil
}
