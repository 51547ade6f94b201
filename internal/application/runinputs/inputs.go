// Package runinputs turns what a run is given (--input flags, a call_workflow's inputs) into
// the typed values its workflow declares, with every problem reported at once: one job, used
// by the run use case and by the engine for called workflows.
package runinputs

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Given are the `--input name=value` flags by name, each name's values in the order given: an
// array input may be given several times and collects them all.
type Given map[string][]string

// ParseInputFlags turns `name=value` flag values into Given, reporting every malformed one.
// Only the first `=` splits, so values may contain `=`; the name is trimmed, the value kept as
// written (its type decides later whether spaces around it matter).
func ParseInputFlags(flags []string) (Given, fault.Diagnostics) {
	out := make(Given, len(flags))
	var ds fault.Diagnostics
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			ds.Errorf(fault.Position{}, fault.UserInputSyntax, "write it as --input name=value", "input %q is not of the form name=value", f)
			continue
		}
		out[k] = append(out[k], v)
	}
	return out, ds
}

// Singles turns one value per name into Given.
func Singles(given map[string]string) Given {
	out := make(Given, len(given))
	for k, v := range given {
		out[k] = []string{v}
	}
	return out
}

// ResolveInputs is InputResolver.Resolve without a file system: an input declared with
// file_exists is reported as impossible to check rather than passed unchecked.
func ResolveInputs(wf *workflow.Workflow, given map[string]string) (map[string]any, fault.Diagnostics) {
	return InputResolver{}.Resolve(wf, Singles(given))
}

// InputResolver types given values against a workflow's declared inputs and checks them
// against their rules before anything runs.
type InputResolver struct {
	// Paths answers file_exists; Root is where relative paths start (the project root).
	Paths ports.PathProbe
	Root  string
}

// Resolve types the given values, fills defaults and zero values, checks every rule, and
// reports every missing, unknown, ill-typed or rule-breaking input at once. A name given
// several times keeps its last value, as in the reference awf, unless the input is an array,
// which collects every value.
func (r InputResolver) Resolve(wf *workflow.Workflow, given Given) (map[string]any, fault.Diagnostics) {
	var ds fault.Diagnostics
	values := make(map[string]any, len(wf.Inputs))
	declared := make([]string, 0, len(wf.Inputs))
	for _, in := range wf.Inputs {
		declared = append(declared, in.Name)
		if in.Type == "" {
			in.Type = workflow.InputString
		}
		v, ok := r.value(&ds, in, given[in.Name])
		if !ok {
			continue
		}
		values[in.Name] = v
	}
	unknownInputs(&ds, wf, given, declared)
	return values, ds
}

// value is one input's value, checked; ok is false when a problem was reported.
func (r InputResolver) value(ds *fault.Diagnostics, in workflow.Input, raws []string) (any, bool) {
	var v any
	switch {
	case len(raws) > 0:
		var err error
		if v, err = parseGiven(in.Type, raws); err != nil {
			hint := ""
			var ve *workflow.InputValueError
			if errors.As(err, &ve) {
				hint = ve.Hint
			}
			ds.Errorf(in.Pos, fault.UserInputInvalidValue, hint, "input %q must be %s: %v", in.Name, workflow.Article(in.Type), err)
			return nil, false
		}
		if in.Required && isEmpty(v) {
			ds.Errorf(in.Pos, fault.UserInputMissing, "give it a value: --input "+in.Name+"=<"+string(in.Type)+">",
				"required input %q (%s) is empty", in.Name, in.Type)
			return nil, false
		}
	case in.Default != nil:
		d, err := workflow.InputDefault(in.Type, in.Default)
		if err != nil {
			ds.Errorf(in.Pos, fault.UserInputInvalidDefault, "run awf validate on the workflow", "the default of input %q cannot be used: %v", in.Name, err)
			return nil, false
		}
		v = d
	case in.Required:
		ds.Errorf(in.Pos, fault.UserInputMissing, "pass it with --input "+in.Name+"=<"+string(in.Type)+">",
			"required input %q (%s) is missing", in.Name, in.Type)
		return nil, false
	default:
		return workflow.ZeroInput(in.Type), true // nothing given: no rule applies
	}
	ok := true
	for _, vi := range workflow.CheckRules(in, v) {
		ds.Errorf(in.Pos, vi.Code, vi.Hint, "input %q: %s", in.Name, vi.Msg)
		ok = false
	}
	return v, r.files(ds, in, v) && ok
}

// parseGiven types the flag values of one input: the last wins, but an array joins them all.
func parseGiven(t workflow.InputType, raws []string) (any, error) {
	if t != workflow.InputArray {
		return workflow.ParseInputText(t, raws[len(raws)-1])
	}
	all := workflow.InputList{}
	for _, raw := range raws {
		v, err := workflow.ParseInputText(t, raw)
		if err != nil {
			return nil, err
		}
		all = append(all, v.(workflow.InputList)...)
	}
	if len(all) > workflow.MaxInputItems {
		return nil, &workflow.InputValueError{Msg: fmt.Sprintf("the values given hold %d items", len(all)), Hint: fmt.Sprintf("give at most %d items", workflow.MaxInputItems)}
	}
	return all, nil
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case workflow.InputList:
		return len(v) == 0
	}
	return false
}

// files checks file_exists, relative paths from the root.
func (r InputResolver) files(ds *fault.Diagnostics, in workflow.Input, v any) bool {
	ok := true
	for _, p := range workflow.FilePaths(in, v) {
		full := p
		if !filepath.IsAbs(p) {
			full = filepath.Join(r.Root, p)
		}
		where := "path " + quote(p)
		if full != p {
			where += " (" + full + ")"
		}
		if r.Paths == nil {
			ds.Errorf(in.Pos, fault.UserInputFileNotFound, "this caller of awf has no file system to check it with", "input %q: cannot check whether %s exists", in.Name, where)
			ok = false
			continue
		}
		switch exists, err := r.Paths.Exists(full); {
		case err != nil:
			ds.Errorf(in.Pos, fault.UserInputFileNotFound, "check the path and its permissions", "input %q: cannot tell whether %s exists: %v", in.Name, where, err)
			ok = false
		case !exists:
			ds.Errorf(in.Pos, fault.UserInputFileNotFound, "give the path of an existing file; a relative path starts at the project root",
				"input %q: %s does not exist", in.Name, where)
			ok = false
		}
	}
	return ok
}

// quote shows a path in a message, cut short (on a rune boundary) when long.
func quote(s string) string {
	const max = 200
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

func unknownInputs(ds *fault.Diagnostics, wf *workflow.Workflow, given Given, declared []string) {
	unknown := make([]string, 0)
	for k := range given {
		if !contains(declared, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		hint := "declared inputs: " + strings.Join(declared, ", ")
		if len(declared) == 0 {
			hint = "this workflow declares no inputs"
		}
		if s := suggest.Closest(k, declared); s != "" {
			hint = "did you mean '" + s + "'?"
		}
		ds.Errorf(fault.Position{File: wf.File}, fault.UserInputUnknown, hint, "unknown input %q", k)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
