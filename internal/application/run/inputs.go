package run

import (
	"sort"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ParseInputFlags turns `k=v` flag values into a map, reporting every malformed one.
func ParseInputFlags(flags []string) (map[string]string, fault.Diagnostics) {
	out := make(map[string]string, len(flags))
	var ds fault.Diagnostics
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			ds.Errorf(fault.Position{}, fault.UserInputSyntax, "write it as --input name=value", "input %q is not of the form name=value", f)
			continue
		}
		out[k] = v
	}
	return out, ds
}

// ResolveInputs types the given values against the workflow's declared inputs, fills defaults and
// reports every missing, unknown or ill-typed input at once.
func ResolveInputs(wf *workflow.Workflow, given map[string]string) (map[string]any, fault.Diagnostics) {
	var ds fault.Diagnostics
	values := make(map[string]any, len(wf.Inputs))
	declared := make([]string, 0, len(wf.Inputs))
	for _, in := range wf.Inputs {
		declared = append(declared, in.Name)
		raw, ok := given[in.Name]
		if !ok {
			switch {
			case in.Default != nil:
				values[in.Name] = in.Default
			case in.Required:
				ds.Errorf(in.Pos, fault.UserInputMissing, "pass it with --input "+in.Name+"=<"+string(in.Type)+">",
					"required input %q (%s) is missing", in.Name, in.Type)
			default:
				values[in.Name] = zeroOf(in.Type)
			}
			continue
		}
		v, err := convert(in.Type, raw)
		if err != nil {
			ds.Errorf(in.Pos, fault.UserInputInvalidValue, err.Error(), "input %q must be %s, got %q", in.Name, articleType(in.Type), raw)
			continue
		}
		values[in.Name] = v
	}
	unknown := make([]string, 0)
	for k := range given {
		if _, ok := values[k]; !ok && !contains(declared, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		hint := "declared inputs: " + strings.Join(declared, ", ")
		if len(declared) == 0 {
			hint = "this workflow declares no inputs"
		}
		if s := workflow.Suggest(k, declared); s != "" {
			hint = "did you mean '" + s + "'?"
		}
		ds.Errorf(fault.Position{File: wf.File}, fault.UserInputUnknown, hint, "unknown input %q", k)
	}
	return values, ds
}

func convert(t workflow.InputType, raw string) (any, error) {
	switch t {
	case workflow.InputInteger:
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil {
			return nil, errHint("use a whole number such as 42")
		}
		return n, nil
	case workflow.InputBoolean:
		b, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			return nil, errHint("use true or false")
		}
		return b, nil
	default:
		return raw, nil
	}
}

type errHint string

func (e errHint) Error() string { return string(e) }

func zeroOf(t workflow.InputType) any {
	switch t {
	case workflow.InputInteger:
		return int64(0)
	case workflow.InputBoolean:
		return false
	default:
		return ""
	}
}

func articleType(t workflow.InputType) string {
	if t == workflow.InputInteger {
		return "an integer"
	}
	return "a " + string(t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
