package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// echoShell answers every command with its own text as output.
type echoShell struct{ seen []string }

func (e *echoShell) RunCommand(_ context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	e.seen = append(e.seen, req.Shown)
	return ports.CommandResult{Stdout: req.Shown}, nil
}

func TestNamespacesAndFuncs(t *testing.T) {
	host := Host{AWF: map[string]string{"config_dir": "/c/awf", "scripts_dir": "/c/awf/scripts"}, WorkingDir: "/w", User: "ann", Hostname: "box"}
	tests := []struct {
		name, first, tmpl, want, code string
	}{
		{"awf dirs", "", "{{.awf.config_dir}} {{awf.scripts_dir}} [{{.awf.cache_dir}}]", "/c/awf /c/awf/scripts []", ""},
		{"context both casings", "", "{{.context.user}}@{{.context.Hostname}}:{{context.working_dir}}", "ann@box:/w", ""},
		{"workflow", "", "{{.workflow.name}} {{.workflow.ID}} {{.workflow.current_state}} {{.workflow.CurrentState}}", "t run-1 b b", ""},
		{"error is empty before a failure", "", "[{{.error.message}}{{.error.ExitCode}}]", "[0]", ""},
		{"JSON parsed lazily from output", `{"k":["x","y"]}`, "{{.states.a.JSON.k}} {{index .states.a.json.k 1}}", "[x y] y", ""},
		{"JSON nil for text", "plain", "{{if .states.a.JSON}}json{{else}}text{{end}}", "text", ""},
		{"split join trimSpace", "", `{{join (split " a, b ,c" ",") "|"}} [{{trimSpace "  x "}}]`, "a|b|c [x]", ""},
		{"join a JSON list", `["p","q"]`, `{{join .states.a.JSON "+"}}`, "p+q", ""},
		{"json", "", `{{json .context.user}}`, `"ann"`, ""},
		{"escape quotes for the shell", "", `{{escape "it's"}}`, `'it'\''s'`, ""},
		{"readFile through the confined reader", "", `{{readFile "notes.txt"}}`, "hello", ""},
		{"readFile refused", "", `{{readFile "../etc/passwd"}}`, "", fault.UserTemplateExec},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := tc.first
			if first == "" {
				first = "x"
			}
			a := cmdState("a", "first", "b", "bad")
			b := &workflow.State{Name: "b", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: tc.tmpl}}
			wf := flow(a, b)
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"first": {Stdout: first}}}
			files := &fakeFiles{files: map[string]string{"notes.txt": "hello"}}
			r := newRun(t, Options{Commands: sh, Host: host, Files: files, Dir: "/p", RunID: "run-1"})
			_, err := r.Run(context.Background(), wf, one)
			msg := err.Error()
			if tc.code != "" {
				if strings.Contains(msg, ": "+tc.want) && tc.want != "" {
					t.Errorf("rendered although refused: %v", err)
				}
				if len(files.asked) == 0 || files.asked[0] != "/p|../etc/passwd" {
					t.Errorf("asked %q", files.asked)
				}
				return
			}
			if !strings.HasSuffix(msg, `failure state "b": `+tc.want) {
				t.Errorf("message = %q, want it to end with %q", msg, tc.want)
			}
		})
	}
}

func TestShellFuncsAreEscaped(t *testing.T) {
	sh := &echoShell{}
	wf := flow(cmdState("a", `echo {{.inputs.who | trimSpace}} {{escape .inputs.who}} {{split .inputs.who ";" | json}}`, "done", "bad"))
	res, err := newRun(t, Options{Commands: sh}).Run(context.Background(), wf, map[string]string{"n": "1", "who": " a;rm -rf / "})
	if err != nil {
		t.Fatal(err)
	}
	want := `echo 'a;rm -rf /' ' a;rm -rf / ' '["a","rm -rf /"]'`
	if res.Steps[0].Output != want {
		t.Errorf("command = %s\nwant      %s", res.Steps[0].Output, want)
	}
}

func TestErrorSetAfterAFailedStep(t *testing.T) {
	a := cmdState("a", "run a", "done", "b")
	b := &workflow.State{Name: "b", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: "{{.error.state}}/{{.error.exit_code}}/{{.error.type}}: {{.error.message}}"}}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"run a": {ExitCode: 9, Stderr: "bad thing"}}}
	_, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(a, b), one)
	if want := `a/9/execution: exit code 9: bad thing`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("err = %v, want suffix %q", err, want)
	}
}
