package workflow

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// testKinds types a small data set: inputs s (string), n (integer), x (number), b (boolean),
// l (list) and the fields of states.
func testKinds(p []string) string {
	if len(p) == 2 && p[0] == "inputs" {
		return map[string]string{"s": KindString, "n": KindInt, "x": KindFloat, "b": KindBool, "l": KindList}[p[1]]
	}
	if len(p) < 3 && p[0] == "states" {
		return KindMap
	}
	if len(p) == 3 && p[0] == "states" {
		if p[2] == "ExitCode" {
			return KindInt
		}
		return KindString
	}
	return ""
}

func TestCheckTemplate(t *testing.T) {
	tests := []struct {
		name, text string
		refs       []string // extra references, as .a.b
		problems   []string // code@line: part of the message
	}{
		{"plain text", "no actions", nil, nil},
		{"plain ref", "{{.inputs.s}}", nil, nil},
		{"with moves dot", "{{with .states.a}}{{.Output}}{{.Nope}}{{end}}", []string{".states.a.Output", ".states.a.Nope"}, nil},
		{"with else keeps dot", "{{with .states.a}}{{else}}{{.inputs.s}}{{end}}", nil, nil},
		{"nested with", "{{with .states}}{{with .a}}{{.Output}}{{end}}{{end}}", []string{".states.a", ".states.a.Output"}, nil},
		{"with over an unknown value", "{{with printf `x`}}{{.Anything}}{{end}}", nil, nil},
		{"range dot is unknown", "{{range .inputs.l}}{{.X}}{{end}}", nil, nil},
		{"range variables are unknown", "{{range $i, $e := .inputs.l}}{{$e.X}}{{end}}", nil, nil},
		{"variable", "{{$s := .states.a}}{{$s.Output}}", []string{".states.a.Output"}, nil},
		{"variable scope ends with its block", "{{if .inputs.b}}{{$s := .states.a}}{{end}}{{$s := 1}}{{$s}}", nil, nil},
		{"variables are seen inside blocks", "{{$s := .states.a}}{{if .inputs.b}}{{$s.Nope}}{{end}}", []string{".states.a.Nope"}, nil},
		{"dot is the data", "{{eq . 1}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: eq cannot compare mapping values"}},
		{"complex and huge constants", "{{eq .inputs.n 1i}}{{eq .inputs.x 9223372036854775808}}", nil, nil},
		{"piped index is not followed", "{{`a` | index .states}}", nil, nil},
		{"$ is the root", "{{with .states.a}}{{$.inputs.s}}{{end}}", nil, nil},
		{"index with constant keys", `{{index .states "a" "Output"}}`, []string{".states.a.Output"}, nil},
		{"index without keys", `{{index .states.a}}`, nil, nil},
		{"index with a variable key", `{{index .states .inputs.s}}`, nil, nil},
		{"index of a namespace function", `{{index inputs "s"}}`, []string{".inputs.s"}, nil},
		{"chain after a pipeline", "{{(.states).a.Output}}", []string{".states.a.Output"}, nil},
		{"chain on an unknown value", "{{(printf `x`).a}}", nil, nil},
		{"namespace chain", "{{inputs.s}}", nil, nil},
		{"unknown function", "{{upper .inputs.s}}", nil, []string{fault.UserTemplateUnknownFunction + `@1: "upper" is neither`}},
		{"unknown function chain", "x\n{{nope.a}}", nil, []string{fault.UserTemplateUnknownFunction + `@2: "nope"`}},
		{"unknown function as argument", "{{printf `%s` nope}}", nil, []string{fault.UserTemplateUnknownFunction + "@1"}},
		{"unknown function in a pipeline", "{{.inputs.s | lower}}", nil, []string{fault.UserTemplateUnknownFunction + "@1"}},
		{"too few", "{{raw}}", nil, []string{fault.UserTemplateBadCall + "@1: raw takes 1 argument, and gets 0"}},
		{"piped counts", "{{.inputs.s | raw}}", nil, nil},
		{"too many with a pipe", "{{.inputs.s | quote .inputs.s}}", nil, []string{fault.UserTemplateBadCall + "@1: quote takes 1 argument, and gets 2"}},
		{"variadic", "{{printf}}", nil, []string{fault.UserTemplateBadCall + "@1: printf takes at least 1 argument, and gets 0"}},
		{"ranged arity", "{{slice .inputs.s 1 2 3 4}}", nil, []string{fault.UserTemplateBadCall + "@1: slice takes 1 to 4 arguments, and gets 5"}},
		{"namespace with an argument", "{{inputs 1}}", nil, []string{fault.UserTemplateBadCall + "@1: inputs takes 0 arguments, and gets 1"}},
		{"arguments to a value", "{{.inputs.s .inputs.n}}", nil, []string{fault.UserTemplateBadCall + "@1: .inputs.s is a value"}},
		{"piped into a value", "{{.inputs.s | .inputs.n}}", nil, []string{fault.UserTemplateBadCall + "@1"}},
		{"call", "{{call .inputs.s}}", nil, []string{fault.UserTemplateBadCall + "@1: call needs a function value"}},
		{"undefined template", `{{template "x"}}`, nil, []string{fault.UserTemplateBadCall + `@1: {{template "x"}} names a template that is not defined`}},
		{"the template itself", `{{template "awf"}}`, nil, []string{fault.UserTemplateBadCall + "@1"}},
		{"defined template", `{{define "x"}}{{.Any}}{{end}}{{template "x" .states.a}}`, nil, nil},
		{"defined template body is checked", `{{define "x"}}{{nope}}{{end}}`, nil, []string{fault.UserTemplateUnknownFunction + "@1"}},
		{"eq of one kind", "{{eq .inputs.n 3}}{{eq .inputs.s `a` `b`}}{{eq .states.a.ExitCode 0}}", nil, nil},
		{"eq of unlike kinds", "{{eq .inputs.s 3}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: eq compares string with integer"}},
		{"int and float differ", "{{if lt .inputs.x 1}}{{end}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: lt compares number with integer"}},
		{"float literal", "{{if lt .inputs.x 1.0}}{{end}}", nil, nil},
		{"piped comparison", "{{.inputs.n | eq 3}}", nil, nil},
		{"piped comparison of unlike kinds", "{{.inputs.s | eq 3}}", nil, []string{fault.UserTemplateTypeMismatch + "@1"}},
		{"ordered booleans", "{{lt .inputs.b true}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: lt cannot compare boolean values"}},
		{"eq of booleans", "{{eq .inputs.b true}}", nil, nil},
		{"eq of a list", "{{eq .inputs.l 1}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: eq cannot compare list values"}},
		{"eq of a map", "{{eq .states.a 1}}", nil, []string{fault.UserTemplateTypeMismatch + "@1: eq cannot compare mapping values"}},
		{"unknown kinds pass", "{{eq .env.X 1}}{{eq (index .states .env.X) 2}}", nil, nil},
		{"number constants", "{{eq .inputs.x 1e3}}{{eq .inputs.x 0x1p-2}}{{eq .inputs.n 0x10}}{{eq .inputs.n 'a'}}{{eq .inputs.x 1.}}", nil, nil},
		{"kinds of function results", "{{eq (len .inputs.s) 1}}{{eq (printf `x`) `x`}}{{eq (eq 1 1) true}}", nil, nil},
		{"kind of a function result mismatch", "{{eq (len .inputs.s) `1`}}", nil, []string{fault.UserTemplateTypeMismatch + "@1"}},
		{"variable kind", "{{$n := .inputs.n}}{{eq $n `1`}}", nil, []string{fault.UserTemplateTypeMismatch + "@1"}},
		{"problems in every branch, with lines", "{{if .inputs.b}}\n{{nope}}\n{{else}}\n{{raw}}\n{{end}}{{range .inputs.l}}{{call .}}{{end}}", nil,
			[]string{fault.UserTemplateUnknownFunction + "@2", fault.UserTemplateBadCall + "@4", fault.UserTemplateBadCall + "@5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := CheckTemplate(tc.text, testKinds)
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, r := range c.Refs {
				refs = append(refs, r.String())
			}
			if !reflect.DeepEqual(refs, tc.refs) {
				t.Errorf("refs %v, want %v", refs, tc.refs)
			}
			if len(c.Problems) != len(tc.problems) {
				t.Fatalf("problems %+v, want %v", c.Problems, tc.problems)
			}
			for i, p := range c.Problems {
				code, rest, _ := strings.Cut(tc.problems[i], "@")
				line, msg, _ := strings.Cut(rest, ": ")
				if p.Code != code || line != strconv.Itoa(p.Line) || !strings.Contains(p.Msg, msg) || p.Hint == "" {
					t.Errorf("problem %d: %+v, want %s", i, p, tc.problems[i])
				}
			}
		})
	}
}

func TestCheckTemplateErrorsAndHints(t *testing.T) {
	if _, err := CheckTemplate("{{.x", nil); !errors.As(err, new(*TemplateError)) {
		t.Errorf("syntax error: %v", err)
	}
	c, err := CheckTemplate("{{inptus.x}}{{qoute .y}}{{zzzzzz}}{{eq .inputs.s 1}}", nil)
	if err != nil || len(c.Problems) != 3 {
		t.Fatalf("%v %+v", err, c.Problems)
	}
	if c.Problems[0].Hint != "did you mean 'inputs'?" || c.Problems[1].Hint != "did you mean 'quote'?" || !strings.Contains(c.Problems[2].Hint, "functions: and, call, eq") {
		t.Errorf("hints: %q | %q | %q", c.Problems[0].Hint, c.Problems[1].Hint, c.Problems[2].Hint)
	}
	if c.Refs != nil {
		t.Errorf("refs %v", c.Refs)
	}
}
