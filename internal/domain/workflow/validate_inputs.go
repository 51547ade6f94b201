package workflow

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// inputNameRE is what `.inputs.NAME` can address in a template.
var inputNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

var inputTypeNames = func() []string {
	out := make([]string, len(InputTypes))
	for i, t := range InputTypes {
		out[i] = string(t)
	}
	return out
}()

func (v *validator) inputs() {
	w := v.w
	first := map[string]int{} // name → index of its first declaration
	for i, in := range w.Inputs {
		path := fmt.Sprintf("inputs[%d]", i)
		namePos := w.ValueAt(path + ".name")
		if _, ok := w.ValuePos[path+".name"]; !ok && in.Pos.Valid() {
			namePos = in.Pos
		}
		switch {
		case strings.TrimSpace(in.Name) == "":
			v.ds.Errorf(namePos, fault.UserInputMissingName, "add `name: <input>` to this input", "input #%d has no name", i+1)
		case !inputNameRE().MatchString(in.Name):
			v.ds.Errorf(namePos, fault.UserInputInvalidName,
				fmt.Sprintf("use letters, digits and underscores, starting with a letter or underscore, e.g. %q", identifier(in.Name)),
				"input name %q cannot be used in templates as .inputs.%s", in.Name, in.Name)
		}
		if in.Name != "" {
			if j, dup := first[in.Name]; dup {
				hint := "rename or remove one of them"
				if p := w.ValueAt(fmt.Sprintf("inputs[%d].name", j)); p.Line > 0 {
					hint = fmt.Sprintf("first declared at line %d; rename or remove one of them", p.Line)
				}
				v.ds.Errorf(namePos, fault.UserInputDuplicateName, hint, "input %q is declared twice", in.Name)
			} else {
				first[in.Name] = i
				v.inputNames = append(v.inputNames, in.Name)
			}
		}
		v.inputType(path, in)
	}
}

func (v *validator) inputType(path string, in Input) {
	if !KnownInputType(in.Type) {
		v.ds.Errorf(v.inputPos(in, path+".type"), fault.UserInputInvalidType, suggest.DidYouMean(string(in.Type), inputTypeNames),
			"input %q has unknown type %q: awf inputs are %s", in.Name, in.Type, strings.Join(inputTypeNames, ", "))
		return // neither the default nor the rules can be judged against a type that does not exist
	}
	if in.Type == "" {
		in.Type = InputString
	}
	in.Validation = v.inputRules(path, in)
	if in.Default == nil {
		return
	}
	def, err := InputDefault(in.Type, in.Default)
	if err != nil {
		var ve *InputValueError
		if errors.As(err, &ve) && !ve.Mismatch {
			v.ds.Errorf(v.inputPos(in, path+".default"), fault.UserInputInvalidDefault, ve.Hint, "the default of input %q cannot be used: %s", in.Name, ve.Msg)
			return
		}
		v.ds.Errorf(v.inputPos(in, path+".default"), fault.UserInputInvalidDefault, defaultHint(in.Type),
			"default %s of input %q is not %s", describeValue(in.Default), in.Name, Article(in.Type))
		return
	}
	for _, vi := range CheckRules(in, def) {
		v.ds.Errorf(v.inputPos(in, path+".default"), fault.UserInputInvalidDefault, vi.Hint,
			"the default of input %q breaks its own validation: %s", in.Name, vi.Msg)
	}
}

func defaultHint(t InputType) string {
	switch t {
	case InputInteger:
		return "write a whole number without quotes, e.g. `default: 3`"
	case InputNumber:
		return "write a number without quotes, e.g. `default: 0.5`"
	case InputBoolean:
		return "write `default: true` or `default: false`, without quotes"
	case InputArray:
		return "write a YAML list, e.g. `default: [a, b]`"
	}
	return "quote the default, e.g. `default: \"text\"`"
}

// describeValue names a decoded YAML value the way a user wrote it.
func describeValue(x any) string {
	switch x := x.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		return "(a list)"
	case map[string]any:
		return "(a mapping)"
	default:
		return fmt.Sprintf("%v", x)
	}
}

// identifier turns a name into the closest valid input name, for the hint.
func identifier(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
