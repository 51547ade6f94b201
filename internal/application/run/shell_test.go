package run

import (
	"context"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// TestCommandValuesAreEscaped: a command's values reach the shell escaped for their place, so
// a hostile input is data; a plain one reads as before.
func TestCommandValuesAreEscaped(t *testing.T) {
	tests := []struct {
		name, tmpl, who, want string
	}{
		{"plain word", `echo hi {{.inputs.who}}`, "dev", `echo hi dev`},
		{"hostile word", `echo hi {{.inputs.who}}`, `x; touch P`, `echo hi 'x; touch P'`},
		{"hostile in double quotes", `echo "hi {{.inputs.who}}"`, `"; touch P #`, `echo "hi \"; touch P #"`},
		{"substitution in single quotes", `echo '{{.inputs.who}}'`, `$(touch P)'`, `echo '$(touch P)'\'''`},
		{"raw is pasted", `echo {{raw .inputs.who}}`, `$HOME`, `echo $HOME`},
		{"quote is kept", `echo {{quote .inputs.who}}`, `a b`, `echo 'a b'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := cmdState("a", tt.tmpl, "done", "bad")
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{tt.want: {}}}
			_, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(s), map[string]string{"n": "1", "who": tt.who})
			if err != nil {
				t.Fatal(err)
			}
			if got := sh.commands(); len(got) != 1 || got[0] != tt.want {
				t.Fatalf("shell got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCommandPlaceWithoutDataStopsTheRun(t *testing.T) {
	s := cmdState("a", `echo \{{.inputs.who}}`, "done", "bad")
	sh := &fakeShell{t: t}
	_, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(s), map[string]string{"n": "1", "who": "x"})
	if fault.CodeOf(err) != fault.UserTemplateShellPlace || len(sh.commands()) != 0 {
		t.Fatalf("err %v, commands %q", err, sh.commands())
	}
}

func TestValueThatEndsAHeredocStopsTheRun(t *testing.T) {
	s := cmdState("a", "cat <<EOF\n{{.inputs.who}}\nEOF", "done", "bad")
	sh := &fakeShell{t: t}
	_, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(s), map[string]string{"n": "1", "who": "EOF\nrm -rf ~"})
	if fault.CodeOf(err) != fault.UserTemplateExec || len(sh.commands()) != 0 {
		t.Fatalf("err %v, commands %q", err, sh.commands())
	}
}

// TestReferenceSpellings: the reference's workflows name namespaces without the dot and read
// state fields in snake case; both reach the same values, in shell code and prompts alike.
func TestReferenceSpellings(t *testing.T) {
	a := cmdState("a", "printf x", "b", "bad")
	b := cmdState("b", `echo {{states.a.output}} {{.states.a.exit_code}} {{inputs.who}} "{{workflow.name}}"`, "done", "bad")
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"printf x": {Stdout: "out"}, `echo out 0 me "t"`: {}}}
	if _, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(a, b), map[string]string{"n": "1", "who": "me"}); err != nil {
		t.Fatalf("err %v, commands %q", err, sh.commands())
	}
}
