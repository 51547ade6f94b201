package yamlrepo

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// outputKeys are the keys of one entry of a workflow's top-level `outputs:`.
var outputKeys = []string{"name", "from", "description"}

// callKey decodes one key of a call_workflow state.
func (l *loader) callKey(c *workflow.CallSpec, f entry, spm posMaps) {
	switch f.Key {
	case "workflow":
		c.Workflow = l.str(f.V, "workflow")
	case "inputs":
		c.Inputs, c.InputOrder = l.textMap(f.V, "inputs", "`inputs: {message: \"{{.inputs.text}}\"}`", spm)
	case "outputs":
		c.Outputs, c.OutputOrder = l.textMap(f.V, "outputs", "`outputs: {result: child_result}`", spm)
	}
}

// textMap reads a mapping of scalars as text, recording where each key and value is written
// under prefix; a list or mapping value is reported.
func (l *loader) textMap(n *yaml.Node, prefix, example string, spm posMaps) (map[string]string, []string) {
	entries, _ := l.Mapping(n, prefix, example)
	out := make(map[string]string, len(entries))
	order := make([]string, 0, len(entries))
	for _, e := range entries {
		l.record(spm, prefix+"."+e.Key, e.K, e.V)
		out[e.Key] = l.str(e.V, prefix+"."+e.Key)
		order = append(order, e.Key)
	}
	return out, order
}

// operationKey decodes one key of an operation state. Inputs keep their YAML types (a number,
// a list of status codes, a mapping of headers); every string in them is a template.
func (l *loader) operationKey(o *workflow.OperationSpec, f entry, spm posMaps) {
	switch f.Key {
	case "operation":
		o.Operation = l.str(f.V, "operation")
	case "inputs":
		r := l.Resolve(f.V)
		if strictyaml.IsNull(r) {
			return
		}
		if r.Kind != yaml.MappingNode {
			l.Invalid(f.V, "write it as a mapping, e.g. `inputs: {method: GET, url: \"https://…\"}`", "inputs must be a mapping, got %s", strictyaml.KindName(r))
			return
		}
		o.Inputs, _ = l.value(f.V, "inputs", 0, func(path string, k, v *yaml.Node) { l.record(spm, path, k, v) }).(map[string]any)
	}
}

// outputs decodes a workflow's top-level `outputs: [{name, from, description}]`.
func (l *loader) outputs(w *workflow.Workflow, pm posMaps, n *yaml.Node) {
	items, _ := l.sequence(n, "outputs", "`- name: result` with `from: states.build.Output` below it")
	for i, item := range items {
		path := fmt.Sprintf("outputs[%d]", i)
		l.record(pm, path, item, item)
		o := workflow.Output{Pos: l.Pos(item)}
		b := block{fmt.Sprintf("output #%d", i+1), "`- name: result`", outputKeys, fault.UserWorkflowUnknownKey, "in an output"}
		l.fields(item, b, pm, path+".", func(e entry) {
			switch e.Key {
			case "name":
				o.Name = l.str(e.V, "the output name")
			case "from":
				o.From = l.str(e.V, "the output's from")
			case "description":
				o.Description = l.str(e.V, "the output description")
			}
		})
		w.Outputs = append(w.Outputs, o)
	}
}
