package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
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

// TestValuesReachTheShellBesideTheCode: a value that would have ended its here-document is
// data now; the code holds a reference and the request carries the value.
func TestValuesReachTheShellBesideTheCode(t *testing.T) {
	s := cmdState("a", "cat <<EOF\n{{.inputs.who}}\nEOF", "done", "bad")
	s.Command().Shell = "/bin/bash"
	code := "cat <<EOF\n${AWF_V_1}\nEOF"
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{code: {}}}
	if _, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(s), map[string]string{"n": "1", "who": "EOF\nrm -rf ~"}); err != nil {
		t.Fatal(err)
	}
	got := sh.seen[0]
	if got.Command != code || strings.Join(got.Values, "|") != "AWF_V_1=EOF\nrm -rf ~" || got.Shell != "/bin/bash" {
		t.Fatalf("request %+v", got)
	}
}

// TestInterpreterScripts: a script_file run by python3 is not a template; the inputs arrive as
// AWF_INPUT_<NAME>, and {{…}} in it is refused, not left for Python to read.
func TestInterpreterScripts(t *testing.T) {
	tests := []struct {
		script   string
		wantCode string
	}{
		{"#!/usr/bin/env python3\nimport os\nprint(f\"{{x}} {os.environ['AWF_INPUT_WHO']}\")\n", ""},
		{"#!/usr/bin/env -S python3 -u\nprint('{{.inputs.who}}')\n", fault.UserTemplateInterpreter},
		{"#!/usr/bin/node\nconsole.log(`{{ inputs.who }}`)\n", fault.UserTemplateInterpreter},
	}
	for _, tc := range tests {
		st := &workflow.State{Name: "s", Type: workflow.StateCommand, OnSuccess: "done", OnFailure: "bad",
			Spec: &workflow.CommandSpec{ScriptFile: "x.py"}}
		sh := &fakeShell{t: t, results: map[string]ports.CommandResult{tc.script: {}}}
		files := &fakeFiles{files: map[string]string{"/p/x.py": tc.script}}
		_, err := newRun(t, Options{Commands: sh, Scripts: files, Dir: "/p"}).Run(context.Background(), flow(st), map[string]string{"n": "1", "who": "it's"})
		if fault.CodeOf(err) != tc.wantCode {
			t.Fatalf("%q: err %v, want %q", tc.script, err, tc.wantCode)
		}
		if tc.wantCode != "" {
			if len(sh.seen) != 0 || !strings.Contains(err.Error(), "AWF_INPUT_NAME") {
				t.Errorf("%q: ran %+v, err %v", tc.script, sh.seen, err)
			}
			continue
		}
		if got := sh.seen[0]; got.Command != tc.script || strings.Join(got.Values, "|") != "AWF_INPUT_FLAG=true|AWF_INPUT_N=1|AWF_INPUT_WHO=it's" {
			t.Errorf("request %+v", got)
		}
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
