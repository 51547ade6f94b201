package workflow

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParseInputText(t *testing.T) {
	tests := []struct {
		typ  InputType
		text string
		want any
		err  string // part of the message; "" means no error
		hint string
	}{
		{InputString, " as is ", " as is ", "", ""},
		{"", "untyped", "untyped", "", ""},
		{InputInteger, "42", int64(42), "", ""},
		{InputInteger, " -3\t", int64(-3), "", ""},
		{InputInteger, "+7", int64(7), "", ""},
		{InputInteger, "1.5", nil, `"1.5" is not a whole number`, "such as 42"},
		{InputInteger, "", nil, `"" is not a whole number`, ""},
		{InputInteger, "9223372036854775808", nil, "out of range for an integer", "9223372036854775807"},
		{InputNumber, "1.5", 1.5, "", ""},
		{InputNumber, "-2", -2.0, "", ""},
		{InputNumber, "1e3", 1000.0, "", ""},
		{InputNumber, "inf", nil, "is not a number", "finite"},
		{InputNumber, "nan", nil, "is not a number", ""},
		{InputNumber, "1e400", nil, "is not a number", ""},
		{InputNumber, "x", nil, `"x" is not a number`, ""},
		{InputBoolean, "true", true, "", ""},
		{InputBoolean, " TRUE ", true, "", ""},
		{InputBoolean, "Yes", true, "", ""},
		{InputBoolean, "1", true, "", ""},
		{InputBoolean, "t", true, "", ""},
		{InputBoolean, "false", false, "", ""},
		{InputBoolean, "NO", false, "", ""},
		{InputBoolean, "0", false, "", ""},
		{InputBoolean, "F", false, "", ""},
		{InputBoolean, "on", nil, `"on" is not a boolean`, "true or false"},
		{InputArray, "a,b", InputList{"a", "b"}, "", ""},
		{InputArray, " a , b ,", InputList{"a", "b", ""}, "", ""},
		{InputArray, "one", InputList{"one"}, "", ""},
		{InputArray, "", InputList{}, "", ""},
		{InputArray, "  ", InputList{}, "", ""},
		{InputArray, `["a,b", 1, null]`, InputList{"a,b", 1.0, nil}, "", ""},
		{InputArray, ` [] `, InputList{}, "", ""},
		{InputArray, `[1,`, nil, "starts with [ but is not a JSON list", `["a","b"]`},
		{InputArray, `{"a":1}`, InputList{`{"a":1}`}, "", ""},
		{InputArray, strings.Repeat("x,", MaxInputItems), nil, "10001 items", "at most 10000"},
		{InputArray, strings.Repeat("x,", MaxInputItems-1) + "x", xs(MaxInputItems), "", ""},
		{InputString, "a\x00", nil, "NUL byte at byte 1", "NUL"},
		{InputArray, "a\x00", nil, "NUL byte", ""},
		{InputString, "\xc3", nil, "not valid UTF-8", "UTF-8"},
		{InputString, strings.Repeat("é", MaxInputBytes/2+1), nil, "bytes long", "file"},
		{InputString, strings.Repeat("x", MaxInputBytes), strings.Repeat("x", MaxInputBytes), "", ""},
	}
	for _, tc := range tests {
		got, err := ParseInputText(tc.typ, tc.text)
		name := string(tc.typ) + " " + quoteValue(tc.text)
		if tc.err == "" {
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s = %#v, %v; want %#v", name, got, err, tc.want)
			}
			continue
		}
		var ve *InputValueError
		if !errors.As(err, &ve) || !strings.Contains(ve.Msg, tc.err) || !strings.Contains(ve.Hint, tc.hint) || ve.Hint == "" || ve.Mismatch {
			t.Errorf("%s: error %#v, want %q with hint %q", name, err, tc.err, tc.hint)
		}
		if got != nil {
			t.Errorf("%s: value %#v with an error", name, got)
		}
	}
}

func TestInputDefault(t *testing.T) {
	tests := []struct {
		typ      InputType
		in, want any
		mismatch bool
	}{
		{InputString, "x", "x", false},
		{"", "x", "x", false},
		{InputString, int64(3), nil, true},
		{InputInteger, 3, int64(3), false},
		{InputInteger, int64(3), int64(3), false},
		{InputInteger, 3.0, nil, true},
		{InputInteger, "3", nil, true},
		{InputNumber, 3, 3.0, false},
		{InputNumber, int64(3), 3.0, false},
		{InputNumber, 0.5, 0.5, false},
		{InputNumber, math.NaN(), nil, true},
		{InputNumber, math.Inf(1), nil, true},
		{InputNumber, "0.5", nil, true},
		{InputBoolean, true, true, false},
		{InputBoolean, "true", nil, true},
		{InputArray, []any{"a", int64(1)}, InputList{"a", int64(1)}, false},
		{InputArray, InputList{"a"}, InputList{"a"}, false},
		{InputArray, "a,b", nil, true},
		{InputArray, map[string]any{}, nil, true},
	}
	for _, tc := range tests {
		got, err := InputDefault(tc.typ, tc.in)
		var ve *InputValueError
		if tc.mismatch {
			if !errors.As(err, &ve) || !ve.Mismatch || ve.Hint != defaultHint(tc.typ) || !strings.Contains(ve.Msg, "is not "+Article(tc.typ)) {
				t.Errorf("%s %#v: error %#v, want a mismatch", tc.typ, tc.in, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %#v = %#v, %v; want %#v", tc.typ, tc.in, got, err, tc.want)
		}
	}
	if _, err := InputDefault(InputString, "a\x00"); err == nil || strings.Contains(err.Error(), "is not a string") {
		t.Errorf("a NUL in a default: %v", err)
	}
	if _, err := InputDefault(InputArray, make([]any, MaxInputItems+1)); err == nil {
		t.Error("a default list over the item cap was accepted")
	}
}

func TestZeroInputAndArticle(t *testing.T) {
	zeros := map[InputType]any{InputString: "", "": "", InputInteger: int64(0), InputNumber: 0.0, InputBoolean: false, InputArray: InputList{}}
	for typ, want := range zeros {
		if got := ZeroInput(typ); !reflect.DeepEqual(got, want) {
			t.Errorf("ZeroInput(%q) = %#v, want %#v", typ, got, want)
		}
	}
	articles := map[InputType]string{InputString: "a string", "": "a string", InputInteger: "an integer", InputNumber: "a number", InputBoolean: "a boolean", InputArray: "an array"}
	for typ, want := range articles {
		if got := Article(typ); got != want {
			t.Errorf("Article(%q) = %q, want %q", typ, got, want)
		}
	}
	for _, typ := range append(InputTypes, "") {
		if !KnownInputType(typ) {
			t.Errorf("%q unknown", typ)
		}
	}
	if KnownInputType("list") || KnownInputType("String") {
		t.Error("an unknown type was known")
	}
}

func TestInputListString(t *testing.T) {
	tests := []struct {
		l    InputList
		want string
	}{
		{nil, "[]"},
		{InputList{}, "[]"},
		{InputList{"a&b", "<x>"}, `["a&b","<x>"]`},
		{InputList{1.5, int64(2), true, nil}, `[1.5,2,true,null]`},
		{InputList{math.NaN()}, "[NaN]"},
	}
	for _, tc := range tests {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("%#v.String() = %s, want %s", tc.l, got, tc.want)
		}
	}
}

func TestQuoteValue(t *testing.T) {
	if got := quoteValue("ab"); got != `"ab"` {
		t.Errorf("short: %s", got)
	}
	if s := strings.Repeat("a", 80); quoteValue(s) != `"`+s+`"` {
		t.Errorf("80 bytes were cut: %s", quoteValue(s))
	}
	// "x" then é (2 bytes) 60 times: byte 80 is inside an é, so the cut falls back to byte 79.
	if got, want := quoteValue("x"+strings.Repeat("é", 60)), `"x`+strings.Repeat("é", 39)+`"… (121 bytes)`; got != want {
		t.Errorf("long: %s, want %s", got, want)
	}
	if got, want := quoteValue(strings.Repeat("é", 60)), `"`+strings.Repeat("é", 40)+`"… (120 bytes)`; got != want {
		t.Errorf("long on a boundary: %s, want %s", got, want)
	}
}

// xs is a list of n "x".
func xs(n int) InputList {
	l := make(InputList, n)
	for i := range l {
		l[i] = "x"
	}
	return l
}
