package routing

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// explain compiles schema, validates args against it and returns the message ("" when valid).
func explain(t *testing.T, schema, args string) string {
	t.Helper()
	_, rs, err := compileSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("compileSchema(%s): %v", schema, err)
	}
	_, obj, msg := parseArgs(json.RawMessage(args))
	if msg != "" {
		t.Fatalf("parseArgs(%s): %s", args, msg)
	}
	return validateArgs(rs, obj)
}

// TestExplainBoundaries pins each explained keyword at its limit and one past it, so an
// off-by-one in the explanation shows.
func TestExplainBoundaries(t *testing.T) {
	str := `{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3}}}`
	arr := `{"type":"object","properties":{"a":{"type":"array","minItems":1,"maxItems":2}}}`
	num := `{"type":"object","properties":{"n":{"type":"number","minimum":100.5}}}`
	req := `{"type":"object","properties":{"x":{},"y":{}},"required":["x","y"]}`
	tests := []struct {
		name, schema, args, want string
	}{
		{"string at its minimum", str, `{"s":"éé"}`, ""},
		{"string under its minimum", str, `{"s":"é"}`, "s: must be at least 2 characters long, got 1"},
		{"string at its maximum", str, `{"s":"ééé"}`, ""},
		{"string over its maximum", str, `{"s":"éééé"}`, "s: must be at most 3 characters long, got 4"},
		{"array at its minimum", arr, `{"a":[1]}`, ""},
		{"array under its minimum", arr, `{"a":[]}`, "a: must have at least 1 items, got 0"},
		{"array at its maximum", arr, `{"a":[1,2]}`, ""},
		{"array over its maximum", arr, `{"a":[1,2,3]}`, "a: must have at most 2 items, got 3"},
		{"number under its minimum", num, `{"n":99.25}`, "n: 99.25 is less than the minimum 100.5"},
		{"integer where a number is wanted", num, `{"n":101}`, ""},
		{"one required field missing", req, `{"x":1}`, "y: required field is missing"},
		{"two required fields missing", req, `{}`, "arguments: required fields are missing: x, y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := explain(t, tt.schema, tt.args); got != tt.want {
				t.Errorf("explain(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

// TestExplainDeepSchema: the depth guard explains a schema exactly maxExplainDepth objects deep
// and stops one level deeper (where a $ref cycle would loop), and the walk leaves no depth
// behind (each level undoes its increment).
func TestExplainDeepSchema(t *testing.T) {
	for _, levels := range []int{maxExplainDepth, maxExplainDepth + 1} {
		schema, args := `{"type":"string","minLength":5}`, `"x"`
		for range levels {
			schema = `{"type":"object","properties":{"k":` + schema + `}}`
			args = `{"k":` + args + `}`
		}
		want := strings.TrimSuffix(strings.Repeat("k.", levels), ".") + ": must be at least 5 characters long, got 1"
		if levels > maxExplainDepth {
			want = ""
		}
		_, rs, err := compileSchema(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		_, obj, _ := parseArgs(json.RawMessage(args))
		x := explainer{root: rs.Schema()}
		if got := x.check(rs.Schema(), obj, ""); got != want {
			t.Fatalf("%d levels: explanation = %.120q, want %.120q", levels, got, want)
		}
		if x.depth != 0 {
			t.Fatalf("depth after the walk = %d, want 0", x.depth)
		}
	}
}

// TestExplainNamesTheRightField: a value at its limit is fine, so the explanation must go on to
// the field that is wrong; tuples are checked position by position in both drafts.
func TestExplainNamesTheRightField(t *testing.T) {
	tests := []struct {
		name, schema, args, want string
	}{
		{"string at maxLength, next field wrong", `{"type":"object","properties":{"a":{"type":"string","maxLength":3},"b":{"type":"integer"}}}`,
			`{"a":"ééé","b":"x"}`, "b: expected integer, got string"},
		{"array at maxItems, next field wrong", `{"type":"object","properties":{"a":{"type":"array","maxItems":2},"b":{"type":"integer"}}}`,
			`{"a":[1,2],"b":"x"}`, "b: expected integer, got string"},
		{"string where a number is wanted", `{"type":"object","properties":{"n":{"type":"number"}}}`, `{"n":"x"}`, "n: expected number, got string"},
		{"prefixItems (2020-12)", `{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"t":["a","b"]}`, "t[1]: expected integer, got string"},
		{"items array (draft-07)", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"t":{"type":"array","items":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"t":["a","b"]}`, "t[1]: expected integer, got string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := explain(t, tt.schema, tt.args); got != tt.want {
				t.Errorf("explain(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestTopLevelSchemaMustBeAnObject(t *testing.T) {
	tests := []struct{ schema, err string }{
		{`{"type":"object"}`, ""},
		{`{"type":["object"]}`, ""},
		{`{"type":["string","null"]}`, `the top level must have "type": "object" as MCP requires, got string, null`},
		{`{"type":["object","null"]}`, `the top level must have "type": "object" as MCP requires, got object, null`},
		{`{}`, `the top level must have "type": "object" as MCP requires, got no type`},
		{`{"type":"string"}`, `the top level must have "type": "object" as MCP requires, got string`},
	}
	for _, tt := range tests {
		_, _, err := compileSchema(json.RawMessage(tt.schema))
		if got := fmt.Sprint(err); (tt.err == "" && err != nil) || (tt.err != "" && got != tt.err) {
			t.Errorf("compileSchema(%s) = %v, want %q", tt.schema, err, tt.err)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	exact := `"` + strings.Repeat("a", 78) + `"` // 80 bytes of JSON
	if got := compactJSON(strings.Repeat("a", 78)); got != exact {
		t.Errorf("compactJSON of 80 bytes = %q", got)
	}
	if got := compactJSON(strings.Repeat("a", 79)); got != `"`+strings.Repeat("a", 79)+"…" {
		t.Errorf("compactJSON of 81 bytes = %q", got)
	}
	if got := compactJSON(func() {}); !strings.HasPrefix(got, "0x") {
		t.Errorf("compactJSON of a value JSON cannot encode = %q", got)
	}
}

func TestAppendPointerField(t *testing.T) {
	tests := []struct{ field, pointer, want string }{
		{"", "/properties/a/items/properties/b", "a[].b"},
		{"", "/properties", ""}, // a dangling keyword names nothing
		{"", "/prefixItems/2/properties/c", "[2].c"},
		{"", "/prefixItems", ""},
		{"x", "/$defs/edit/properties/o", "x.o"},
		{"", "/properties/a~1b~0c", "a/b~c"},
	}
	for _, tt := range tests {
		if got := appendPointerField(tt.field, tt.pointer); got != tt.want {
			t.Errorf("appendPointerField(%q, %q) = %q, want %q", tt.field, tt.pointer, got, tt.want)
		}
	}
}

func TestCleanValidatorErrorEdges(t *testing.T) {
	tests := []struct{ in, want string }{
		{"validating root", "validating root"}, // no ": " at all
		{"validating : x", "x"},                // an empty pointer names no field
	}
	for _, tt := range tests {
		if got := cleanValidatorError(tt.in); got != tt.want {
			t.Errorf("cleanValidatorError(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestListNamesAtTheCap(t *testing.T) {
	names := make([]string, maxListed)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	if got := listNames(names); strings.Contains(got, "more") || !strings.HasSuffix(got, fmt.Sprint(maxListed-1)) {
		t.Errorf("listNames of exactly %d names = %q", maxListed, got)
	}
}

func TestTruncateStringWithoutRuneStart(t *testing.T) {
	if got := truncateString(strings.Repeat("\x80", 10), 4); got != "…[truncated 10 bytes]" {
		t.Errorf("truncateString of continuation bytes = %q", got)
	}
}
