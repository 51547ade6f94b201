package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/urlsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// OperationCheck checks every operation state against what can serve it: a built-in operation
// of builtins (http.request), or <plugin>.<operation> of a plugin declared in .awf/plugins.yaml,
// started through reg to ask what it lists. Each problem is at its file:line:col:
//
//   - USER.OPERATION.UNKNOWN: no built-in has the name, the plugin is not declared (or is
//     disabled, or cannot start), or the running plugin does not list the operation
//     (did-you-mean over every name that would work);
//   - USER.OPERATION.UNKNOWN_INPUT / MISSING_INPUT: an input the operation does not take, or a
//     required one not given (from the built-in's inputs or the plugin's JSON Schema);
//   - USER.TEMPLATE.URL_PLACE: a {{…}} of an http.request url where its value would choose the
//     scheme, host or port (urlPlaces).
func OperationCheck(builtins []ports.OperationSpec, reg ports.PluginRegistry) Check {
	return func(ctx context.Context, wf *workflow.Workflow) fault.Diagnostics {
		oc := &opChecker{builtins: builtins, pc: &pluginChecker{reg: reg, ops: map[string]opsResult{}}}
		for _, name := range wf.Order {
			s := wf.States[name]
			if s == nil || s.Operation() == nil || strings.TrimSpace(s.Operation().Operation) == "" {
				continue
			}
			oc.state(ctx, s, s.Operation())
		}
		return append(oc.pc.ds, oc.ds...)
	}
}

type opChecker struct {
	builtins []ports.OperationSpec
	pc       *pluginChecker
	ds       fault.Diagnostics
}

func (oc *opChecker) state(ctx context.Context, s *workflow.State, o *workflow.OperationSpec) {
	name := strings.TrimSpace(o.Operation)
	pos := s.ValueAt("operation")
	for _, b := range oc.builtins {
		if b.Name == name {
			oc.inputs(s, o, b.Inputs, true)
			if name == httpRequest {
				oc.ds = append(oc.ds, urlPlaces(s, o)...)
			}
			return
		}
	}
	plugin, op, ok := strings.Cut(name, ".")
	oc.pc.load(ctx, pos)
	if oc.pc.readErr {
		return // plugins.yaml is broken: reported once by load
	}
	decl, declared := oc.pc.decls[plugin]
	switch {
	case !ok || !declared:
		oc.ds.Errorf(pos, fault.UserOperationUnknown, oc.hint(ctx, name),
			"operation %q of state %q is neither built in nor an operation of a plugin declared in .awf/plugins.yaml", name, s.Name)
		return
	case decl.Disabled:
		oc.ds.Errorf(pos, fault.UserOperationUnknown, fmt.Sprintf("remove `disabled: true` from its declaration at %s, or stop using it here", decl.Pos),
			"operation %q of state %q belongs to plugin %q, which is disabled", name, s.Name, plugin)
		return
	}
	r := oc.pc.operations(ctx, plugin)
	if r.err != nil {
		oc.ds.Errorf(pos, fault.UserOperationUnknown, "run the plugin's command by hand, and see awf's log for its output",
			"cannot ask plugin %q for its operations (state %q): %s", plugin, s.Name, message(r.err))
		return
	}
	if !slices.Contains(r.names, op) {
		oc.ds.Errorf(pos, fault.UserOperationUnknown, oc.hint(ctx, name), "plugin %q does not list operation %q (state %q)", plugin, op, s.Name)
		return
	}
	ops, _ := oc.pc.reg.Operations(ctx, plugin)
	for _, po := range ops {
		if po.Name == op {
			want, closed := schemaInputs(po.InputSchema)
			oc.inputs(s, o, want, closed)
		}
	}
}

// hint suggests the closest operation name among the built-ins and the declared plugins'.
func (oc *opChecker) hint(ctx context.Context, name string) string {
	var names []string
	for _, b := range oc.builtins {
		names = append(names, b.Name)
	}
	for _, p := range oc.pc.names {
		if oc.pc.decls[p].Disabled {
			continue
		}
		for _, op := range oc.pc.operations(ctx, p).names {
			names = append(names, p+"."+op)
		}
	}
	if s := suggest.Closest(name, names); s != "" {
		return "did you mean '" + s + "'? operations: " + strings.Join(names, ", ")
	}
	return "operations: " + strings.Join(names, ", ") + "; a plugin operation is written <plugin>.<operation>"
}

// inputs checks the state's inputs against the operation's: a name it does not take (when the
// list is closed) and a required one missing.
func (oc *opChecker) inputs(s *workflow.State, o *workflow.OperationSpec, want []ports.OperationInput, closed bool) {
	names := make([]string, 0, len(want))
	for _, in := range want {
		names = append(names, in.Name)
	}
	given := make([]string, 0, len(o.Inputs))
	for k := range o.Inputs {
		given = append(given, k)
	}
	sort.Strings(given)
	if closed {
		for _, k := range given {
			if !slices.Contains(names, k) {
				oc.ds.Errorf(s.KeyAt("inputs."+k), fault.UserOperationUnknownInput, suggest.DidYouMean(k, names),
					"operation %q of state %q takes no input %q", o.Operation, s.Name, k)
			}
		}
	}
	for _, in := range want {
		if _, ok := o.Inputs[in.Name]; in.Required && !ok {
			pos := s.KeyAt("inputs")
			hint := fmt.Sprintf("add `%s:` under `inputs:`", in.Name)
			if in.Description != "" {
				hint += " (" + in.Description + ")"
			}
			oc.ds.Errorf(pos, fault.UserOperationMissingInput, hint,
				"operation %q of state %q needs input %q", o.Operation, s.Name, in.Name)
		}
	}
}

// schemaInputs reads a plugin operation's JSON Schema for its properties and required names;
// closed reports whether it refuses other properties (additionalProperties: false).
func schemaInputs(schema json.RawMessage) (inputs []ports.OperationInput, closed bool) {
	var sc struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
		Required             []string `json:"required"`
		AdditionalProperties *bool    `json:"additionalProperties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &sc) != nil {
		return nil, false
	}
	out := make([]ports.OperationInput, 0, len(sc.Properties))
	for name, p := range sc.Properties {
		out = append(out, ports.OperationInput{Name: name, Required: slices.Contains(sc.Required, name), Description: p.Description})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, sc.AdditionalProperties != nil && !*sc.AdditionalProperties
}

// httpRequest is the built-in operation whose url is a URL template.
const httpRequest = "http.request"

// urlPlaces reports each {{…}} of an http.request url that no value may take: in the scheme,
// host or port (unless {{raw}}), or across {{if}} branches that end in different URL parts.
func urlPlaces(s *workflow.State, o *workflow.OperationSpec) fault.Diagnostics {
	text, _ := o.Inputs["url"].(string)
	places, err := urlsafe.Check(text)
	if err != nil {
		return nil // a syntax error: the template checks report it
	}
	var ds fault.Diagnostics
	for _, pe := range places {
		ds.Errorf(s.ValueAt("inputs.url"), fault.UserTemplateURLPlace,
			"write the scheme, host and port in the url; mark a value you trust {{raw …}}, e.g. url: \"{{raw .inputs.base_url}}/items/{{.inputs.id}}\"",
			"column %d of the url of state %q: %v", pe.Column, s.Name, pe.Err)
	}
	return ds
}
