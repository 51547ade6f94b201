package workflow

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// ruleTypes says which input types each rule applies to. A rule on another type would be
// ignored by the reference awf without a word; here it is an error, so it cannot look like a
// check that is not there.
var ruleTypes = map[string][]InputType{
	"pattern":        {InputString, InputArray},
	"enum":           {InputString, InputInteger, InputNumber, InputBoolean, InputArray},
	"min":            {InputInteger, InputNumber},
	"max":            {InputInteger, InputNumber},
	"file_exists":    {InputString, InputArray},
	"file_extension": {InputString, InputArray},
}

// inputRules checks an input's `validation:` block: each rule fits the input's type and can
// work. in.Type is known and not empty. It returns the rules that passed, for checking the
// default without repeating what is already reported.
func (v *validator) inputRules(path string, in Input) *InputRules {
	r := in.Validation
	if r == nil {
		return nil
	}
	good := *r
	rp := path + ".validation."
	at := func(keys ...string) fault.Position { return v.inputPos(in, keys...) }
	used := map[string]bool{"pattern": r.Pattern != "", "enum": r.Enum != nil, "min": r.Min != nil, "max": r.Max != nil,
		"file_exists": r.FileExists, "file_extension": r.FileExtension != nil}
	for _, rule := range []string{"pattern", "enum", "min", "max", "file_exists", "file_extension"} {
		if used[rule] && !typeIn(in.Type, ruleTypes[rule]) {
			v.ds.Errorf(at(rp+rule), fault.UserInputInvalidRule, "remove it, or give the input a type it applies to: "+typeList(ruleTypes[rule]),
				"input %q is %s; validation rule %s applies to %s inputs only", in.Name, Article(in.Type), rule, typeList(ruleTypes[rule]))
			used[rule] = false
		}
	}
	if !used["pattern"] {
		good.Pattern = ""
	}
	if used["pattern"] {
		if _, err := CompilePattern(r.Pattern); err != nil {
			good.Pattern = ""
			v.ds.Errorf(at(rp+"pattern"), fault.UserInputInvalidRule, "write a Go (RE2) regular expression, e.g. `pattern: '^v[0-9]+$'`; in YAML, single quotes keep backslashes as written",
				"the pattern of input %q does not compile: %v", in.Name, err)
		}
	}
	if !used["enum"] || !v.enumRule(in, rp+"enum") {
		good.Enum = nil
	}
	good.Min, good.Max = nil, nil
	if used["min"] || used["max"] {
		good.Min, good.Max = v.rangeRule(in, rp)
	}
	good.FileExtension = nil
	if used["file_extension"] {
		for i, e := range r.FileExtension {
			if strings.Trim(e, ".") == "" || strings.ContainsAny(e, "/\\\x00") {
				v.ds.Errorf(at(fmt.Sprintf("%sfile_extension[%d]", rp, i), rp+"file_extension"), fault.UserInputInvalidRule, "write extensions such as \".go\" or \".tar.gz\"",
					"file_extension of input %q lists %q, which is not a file extension", in.Name, e)
				continue
			}
			good.FileExtension = append(good.FileExtension, e)
		}
	}
	return &good
}

// enumRule reports enum values that do not fit the input; ok when there are none.
func (v *validator) enumRule(in Input, key string) (ok bool) {
	if len(in.Validation.Enum) == 0 {
		v.ds.Errorf(v.inputPos(in, key), fault.UserInputInvalidRule, "list the allowed values, e.g. `enum: [dev, staging, prod]`, or remove enum",
			"enum of input %q lists no values, so no value could pass", in.Name)
		return false
	}
	ok = true
	want := in.Type
	if want == InputArray {
		want = InputString // the allowed items, as text
	}
	for i, e := range in.Validation.Enum {
		if _, err := InputDefault(want, e); err != nil || e == nil {
			v.ds.Errorf(v.inputPos(in, fmt.Sprintf("%s[%d]", key, i), key), fault.UserInputInvalidRule, "list "+string(want)+" values, as the input's values are; numbers and booleans without quotes",
				"enum value #%d of input %q is %s, not %s", i+1, in.Name, describeValue(e), Article(want))
			ok = false
		}
	}
	return ok
}

// rangeRule reports a min or max that does not fit the input, or min above max, and returns
// the bounds that are fine.
func (v *validator) rangeRule(in Input, rp string) (lo, hi any) {
	r := in.Validation
	fits := func(key string, val any) any {
		if val == nil {
			return nil
		}
		_, isInt := val.(int64)
		if _, isFloat := val.(float64); isInt || (isFloat && in.Type == InputNumber) {
			return val
		}
		v.ds.Errorf(v.inputPos(in, rp+key), fault.UserInputInvalidRule, "write a number without quotes, e.g. `"+key+": 10`",
			"%s of input %q is %s, not %s", key, in.Name, describeValue(val), Article(in.Type))
		return nil
	}
	lo, hi = fits("min", r.Min), fits("max", r.Max)
	if lo != nil && hi != nil {
		l, _ := bound(lo)
		h, _ := bound(hi)
		if lessThan(hi, h, lo, l) {
			v.ds.Errorf(v.inputPos(in, rp+"max"), fault.UserInputInvalidRule, "swap them, or correct one",
				"input %q has min %v above max %v, so no value could pass", in.Name, lo, hi)
			return nil, nil
		}
	}
	return lo, hi
}

// inputPos is where the first of paths that the file records is written, else the input.
func (v *validator) inputPos(in Input, paths ...string) fault.Position {
	for _, p := range paths {
		if pos, ok := v.w.ValuePos[p]; ok {
			return pos
		}
		if pos, ok := v.w.Pos[p]; ok {
			return pos
		}
	}
	if in.Pos.Valid() {
		return in.Pos
	}
	return v.w.fileStart()
}

func typeIn(t InputType, list []InputType) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

func typeList(list []InputType) string {
	s := make([]string, len(list))
	for i, t := range list {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
