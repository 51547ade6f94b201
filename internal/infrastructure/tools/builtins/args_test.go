package builtins

import (
	"encoding/json"
	"strings"
	"testing"
)

type sampleArgs struct {
	Name  string `json:"name"`
	Count *int   `json:"count"`
	Flag  bool   `json:"flag"`
	Dash  *bool  `json:"-n"`
}

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		in      string
		wantErr string
		check   func(sampleArgs) bool
	}{
		{`{"name":"a","count":3,"flag":true,"-n":false}`, "", func(a sampleArgs) bool {
			return a.Name == "a" && *a.Count == 3 && a.Flag && a.Dash != nil && !*a.Dash
		}},
		{`{"name":"a","count":3.0}`, "", func(a sampleArgs) bool { return *a.Count == 3 }},
		{`{"name":"a","count":1e3}`, "", func(a sampleArgs) bool { return *a.Count == 1000 }},
		{`{"name":"a","count":null}`, "", func(a sampleArgs) bool { return a.Count == nil }},
		{`{"name":"a","count":-7}`, "", func(a sampleArgs) bool { return *a.Count == -7 }},
		{`{"name":"a","count":1.5}`, `"count" must be an integer, got 1.5`, nil},
		{`{"name":"a","count":1e300}`, `"count" must be an integer`, nil},
		{`{"name":"a","count":9007199254740993}`, `"count" must be an integer`, nil},
		{`{"name":"a","count":"3"}`, `"count" must be an integer, got a string`, nil},
		{`{"name":"a","flag":"true"}`, `"flag" must be a boolean`, nil},
		{`{"name":"a","flag":1}`, `"flag" must be a boolean`, nil},
		{`{"name":7}`, `"name" must be a string, got a number`, nil},
		{`{"name":{"x":1}}`, `"name" must be a string, got an object`, nil},
		{`{"name":null}`, `missing required argument "name"`, nil},
		{`{"Name":"a"}`, `unknown argument "Name"; valid arguments are: name, count, flag, -n`, nil},
		{``, `missing required argument "name"`, nil},
		{`null`, `missing required argument "name"`, nil},
		{`"x"`, `must be a JSON object, got a string`, nil},
		{`{"name":"a"} trailing`, `not a valid JSON object`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var a sampleArgs
			err := decodeArgs(json.RawMessage(tt.in), &a, "name")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(a) {
				t.Fatalf("decoded %+v", a)
			}
		})
	}
}

// FuzzDecodeArgs checks that no input panics and that an accepted input holds only declared,
// well-typed fields: re-encoding what was decoded and decoding it again gives the same value.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{"name":"a","count":3,"flag":true}`, `{"count":1e3}`, `null`, `[]`, `{"-n":true,"name":""}`, `{"name":"\u0000"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var a sampleArgs
		if err := decodeArgs(raw, &a, "name"); err != nil {
			if _, ok := err.(*argError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		m := map[string]any{"name": a.Name, "flag": a.Flag}
		if a.Count != nil {
			m["count"] = *a.Count
		}
		if a.Dash != nil {
			m["-n"] = *a.Dash
		}
		again, _ := json.Marshal(m)
		var b sampleArgs
		if err := decodeArgs(again, &b, "name"); err != nil {
			t.Fatalf("re-decoding %s: %v", again, err)
		}
		if b.Name != a.Name || b.Flag != a.Flag || (a.Count == nil) != (b.Count == nil) || (a.Count != nil && *a.Count != *b.Count) {
			t.Fatalf("round trip changed %+v into %+v", a, b)
		}
	})
}
