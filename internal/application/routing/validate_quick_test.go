package routing

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// quickSchemas are schemas with a quick form: the shapes of the built-ins' schemas.
var quickSchemas = []string{
	readSchema,
	`{"type":"object","properties":{"pattern":{"type":"string","minLength":1},"path":{"type":"string"},"output_mode":{"type":"string","enum":["content","files_with_matches","count"]},"-n":{"type":"boolean"},"head_limit":{"type":"integer","minimum":0,"maximum":1000}},"required":["pattern"],"additionalProperties":false}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"t","description":"d","properties":{"id":{"type":"string","pattern":"^[a-z]+$","maxLength":5,"description":"x","default":"ab"},"ratio":{"type":"number","minimum":0.5},"any":{}}}`,
}

// values are argument values of every JSON type, near every bound above.
var values = []any{nil, true, false, 0.0, -1.0, 0.5, 0.49, 1.0, 2.5, 1000.0, 1000.5, 1001.0, 1e300, "", "a", "ab", "abcde", "abcdef", "A", "é", "content", "count", "Content",
	[]any{}, []any{"a"}, map[string]any{}, map[string]any{"a": 1.0}}

var keys = []string{"file_path", "offset", "limit", "pattern", "path", "output_mode", "-n", "head_limit", "id", "ratio", "any", "other"}

// The quick form only ever accepts what the validator accepts, and it does accept the usual
// valid calls (else it would save nothing): checked over random argument objects.
func TestQuickSchemaAgreesWithTheValidator(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, raw := range quickSchemas {
		_, rs, err := compileSchema(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		q := newQuickSchema(rs.Schema())
		if q == nil {
			t.Fatalf("schema %d has no quick form", i)
		}
		accepted, valid := 0, 0
		for range 20000 {
			args := map[string]any{}
			for range rng.IntN(4) {
				args[keys[rng.IntN(len(keys))]] = values[rng.IntN(len(values))]
			}
			ok := rs.Validate(args) == nil
			if q.accepts(args) {
				accepted++
				if !ok {
					t.Fatalf("schema %d: quick accepts %v, the validator refuses it: %v", i, args, rs.Validate(args))
				}
			}
			if ok {
				valid++
			}
		}
		if accepted == 0 || accepted != valid {
			t.Errorf("schema %d: quick accepted %d of %d valid argument objects", i, accepted, valid)
		}
	}
}

func TestSchemasWithoutAQuickForm(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"a":{"type":"string","format":"email"}}}`,
		`{"type":"object","properties":{"a":{"type":["string","null"]}}}`,
		`{"type":"object","properties":{"a":{"enum":[1,2]}}}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"type":"object","minProperties":1}`,
		`{"type":"object","properties":{"a":{"type":"integer","multipleOf":2}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-extra":1}}}`,
		`{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}`,
	} {
		_, rs, err := compileSchema(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if q := newQuickSchema(rs.Schema()); q != nil {
			t.Errorf("%s: got a quick form %+v", raw, q)
		}
	}
	if newQuickProp(nil) != nil {
		t.Error("a nil property schema has a quick form")
	}
}

func TestQuickPropBounds(t *testing.T) {
	one, five := 1.0, 5.0
	two := 2
	p := &quickProp{typ: "number", min: &one, max: &five}
	for v, want := range map[any]bool{1.0: true, 5.0: true, 0.99: false, 5.01: false, "3": false} {
		if got := p.accepts(v); got != want {
			t.Errorf("number %v: %v, want %v", v, got, want)
		}
	}
	s := &quickProp{typ: "string", minLen: &two, maxLen: &two}
	for v, want := range map[any]bool{"ab": true, "éé": true, "a": false, "abc": false} {
		if got := s.accepts(v); got != want {
			t.Errorf("string %q: %v, want %v", fmt.Sprint(v), got, want)
		}
	}
	if (&quickProp{enum: []string{"a"}}).accepts(true) || !(&quickProp{}).accepts(nil) {
		t.Error("enum on a non-string, or an empty property")
	}
}
