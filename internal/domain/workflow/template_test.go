package workflow

import (
	"errors"
	"reflect"
	"testing"
)

func TestTemplateRefs(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"no action", "make all", nil},
		{"fields", "echo {{.inputs.target}} {{.states.build.Output}}", []string{".inputs.target", ".states.build.Output"}},
		{"root variable", "{{$.env.HOME}}", []string{".env.HOME"}},
		{"in function args", `{{printf "%s-%s" .workflow.ID (index .inputs "x")}}`, []string{".workflow.ID", ".inputs"}},
		{"if keeps dot", "{{if .inputs.verbose}}-v{{else}}{{.inputs.quiet}}{{end}}", []string{".inputs.verbose", ".inputs.quiet"}},
		{"with moves dot", "{{with .states.build}}{{.Output}}{{$.inputs.x}}{{else}}{{.inputs.y}}{{end}}", []string{".states.build", ".inputs.x", ".inputs.y"}},
		{"range moves dot", "{{range .inputs.list}}{{.Name}}{{end}}", []string{".inputs.list"}},
		{"variables are untyped", "{{$x := .inputs.a}}{{$x.foo}}", []string{".inputs.a"}},
		{"unknown function is not our business", "{{upper .inputs.a}}", []string{".inputs.a"}},
		{"comments", "{{/* .inputs.nope */}}{{.env.X}}", []string{".env.X"}},
		{"chain", "{{(.states).build.Output}}", []string{".states"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs, err := TemplateRefs(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.String())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTemplateRefsPositions(t *testing.T) {
	refs, err := TemplateRefs("line one\n  {{.inputs.a}}\n{{.env.B}} {{$.states.s.Output}}")
	if err != nil {
		t.Fatal(err)
	}
	want := []Ref{
		{Path: []string{"inputs", "a"}, Offset: 13, Line: 2},
		{Path: []string{"env", "B"}, Offset: 27, Line: 3},
		{Path: []string{"states", "s", "Output"}, Offset: 39, Line: 3},
	}
	if !reflect.DeepEqual(refs, want) {
		t.Errorf("got %#v, want %#v", refs, want)
	}
}

func TestTemplateRefsErrors(t *testing.T) {
	tests := []struct {
		text string
		line int
	}{
		{"{{.inputs.a", 1},
		{"ok\nok\n{{if .inputs.a}}", 3},
		{"{{.inputs.a}", 1},
		{"{{end}}", 1},
	}
	for _, tt := range tests {
		_, err := TemplateRefs(tt.text)
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Errorf("%q: error %v, want a *TemplateError", tt.text, err)
			continue
		}
		if te.Line != tt.line || te.Msg == "" {
			t.Errorf("%q: got line %d msg %q, want line %d", tt.text, te.Line, te.Msg, tt.line)
		}
	}
}
