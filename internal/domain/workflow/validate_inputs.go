package workflow

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// inputNameRE is what `.inputs.NAME` can address in a template.
var inputNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var inputTypeNames = []string{string(InputString), string(InputInteger), string(InputBoolean)}

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
		case !inputNameRE.MatchString(in.Name):
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
	w := v.w
	switch in.Type {
	case InputString, InputInteger, InputBoolean, "":
	default:
		v.ds.Errorf(w.ValueAt(path+".type"), fault.UserInputInvalidType, DidYouMean(string(in.Type), inputTypeNames),
			"input %q has unknown type %q: awf inputs are string, integer or boolean", in.Name, in.Type)
		return // the default cannot be judged against a type that does not exist
	}
	if in.Default == nil {
		return
	}
	var ok bool
	switch in.Type {
	case InputInteger:
		switch in.Default.(type) {
		case int, int64:
			ok = true
		}
	case InputBoolean:
		_, ok = in.Default.(bool)
	default:
		_, ok = in.Default.(string)
	}
	if !ok {
		typ := in.Type
		if typ == "" {
			typ = InputString
		}
		v.ds.Errorf(w.ValueAt(path+".default"), fault.UserInputInvalidDefault, defaultHint(typ),
			"default %s of input %q is not %s", describeValue(in.Default), in.Name, article(typ))
	}
}

func defaultHint(t InputType) string {
	switch t {
	case InputInteger:
		return "write a whole number without quotes, e.g. `default: 3`"
	case InputBoolean:
		return "write `default: true` or `default: false`, without quotes"
	}
	return "quote the default, e.g. `default: \"text\"`"
}

func article(t InputType) string {
	if t == InputInteger {
		return "an integer"
	}
	return "a " + string(t)
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
