package direct

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEachMember(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want map[string]string
	}{
		{`{}`, true, map[string]string{}},
		{` { } `, true, map[string]string{}},
		{`{"a":1,"b":"x\"}","c":{"d":[1,{"e":"]"}]},"f":null,"g":true,"h":-1.5e3,"i":[]}`, true, map[string]string{
			"a": `1`, "b": `"x\"}"`, "c": `{"d":[1,{"e":"]"}]}`, "f": `null`, "g": `true`, "h": `-1.5e3`, "i": `[]`}},
		{"{ \"a\" :\t[ 1 , 2 ] ,\n\"b\" : \"\\\\\" }", true, map[string]string{"a": `[ 1 , 2 ]`, "b": `"\\"`}},
		{`{"a\u0062":1}`, false, nil},
		{`[1]`, false, nil},
		{`"x"`, false, nil},
		{`null`, false, nil},
		{``, false, nil},
	} {
		got := map[string]string{}
		ok := eachMember([]byte(tc.in), func(k, v []byte) bool { got[string(k)] = string(v); return true })
		if ok != tc.ok || ok && !maps.Equal(got, tc.want) {
			t.Errorf("eachMember(%s) = %v %v, want %v %v", tc.in, ok, got, tc.ok, tc.want)
		}
	}
}

// FuzzEachMember checks eachMember against encoding/json on any valid object without escaped
// or repeated keys: the same keys, each with the same raw value.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":{"b":[1,"]}"]},"c":"\\\"","d":null}`, ` {"x" : [ ] , "y":{ }} `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want map[string]json.RawMessage
		if !utf8.ValidString(in) || json.Unmarshal([]byte(in), &want) != nil || want == nil {
			return // encoding/json replaces invalid UTF-8 in keys; the direct path compares bytes
		}
		var keys []string
		got := map[string]json.RawMessage{}
		ok := eachMember([]byte(in), func(k, v []byte) bool {
			keys = append(keys, string(k))
			got[string(k)] = json.RawMessage(v)
			return true
		})
		if !ok {
			if !strings.Contains(in, `\`) && len(keys) == len(got) {
				t.Fatalf("eachMember refused %q", in)
			}
			return
		}
		if len(keys) != len(got) {
			return // a repeated key: encoding/json keeps the last, the direct path declines
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, encoding/json %d", in, len(got), len(want))
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Fatalf("%q: member %q = %s, encoding/json %s", in, k, got[k], v)
			}
		}
	})
}
