package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestContinueOnError(t *testing.T) {
	for _, cont := range []bool{false, true} {
		a := cmdState("a", "run a", "b", "bad")
		a.Spec.(*workflow.CommandSpec).ContinueOnError = cont
		wf := flow(a, cmdState("b", "echo {{.states.a.ExitCode}} {{.states.a.Status}}", "done", "bad"))
		sh := &fakeShell{t: t, results: map[string]ports.CommandResult{
			"run a": {ExitCode: 7, Stderr: "boom"}, "echo 7 failure": {Stdout: "seen"},
		}}
		res, _ := newRun(t, Options{Commands: sh}).Run(context.Background(), wf, one)
		want, next := "failure", "bad"
		if cont {
			want, next = "success", "b"
		}
		if res.Status != want || res.Steps[0].Next != next || res.Steps[0].Status != StepFailure || res.Steps[0].ExitCode != 7 {
			t.Errorf("continue_on_error %v: run %s, step a %+v", cont, res.Status, res.Steps[0])
		}
		if cont && (len(res.Steps) != 2 || res.Steps[1].Output != "seen") {
			t.Errorf("b did not see a's failure: %+v", res.Steps)
		}
	}
}

func TestScriptFile(t *testing.T) {
	tests := []struct {
		name, path, wfFile string
		files              map[string]string
		env                []string
		wantAsked          []string
		wantCmd            string
		wantCode           string
	}{
		{"next to the workflow first", "s.sh", "/p/.awf/workflows/w.yaml",
			map[string]string{"/p/.awf/workflows/s.sh": "echo {{.inputs.who}}", "/p/s.sh": "wrong"}, nil,
			[]string{"/p/.awf/workflows/s.sh"}, "echo 'a b'", ""},
		{"then the project root", "scripts/s.sh", "/p/.awf/workflows/w.yaml",
			map[string]string{"/p/scripts/s.sh": "#!/bin/bash\necho {{.inputs.who}}"}, nil,
			[]string{"/p/.awf/workflows/scripts/s.sh", "/p/scripts/s.sh"}, "#!/bin/bash\necho 'a b'", ""},
		{"home", "~/s.sh", "/p/w.yaml", map[string]string{"/h/s.sh": "x"}, nil, []string{"/h/s.sh"}, "x", ""},
		{"absolute", "/abs/s.sh", "/p/w.yaml", map[string]string{"/abs/s.sh": "x"}, nil, []string{"/abs/s.sh"}, "x", ""},
		{"scripts_dir local before global", "{{.awf.scripts_dir}}/d.sh", "/p/wf/w.yaml",
			map[string]string{"/g/scripts/d.sh": "global"}, nil,
			[]string{"/p/wf/scripts/d.sh", "/g/scripts/d.sh"}, "global", ""},
		{"a workflow in the root is looked for once", "nope.sh", "/p/w.yaml", nil, nil,
			[]string{"/p/nope.sh"}, "", fault.UserWorkflowScriptFile},
		{"missing everywhere stops the run", "nope.sh", "/p/wf/w.yaml", nil, nil,
			[]string{"/p/wf/nope.sh", "/p/nope.sh"}, "", fault.UserWorkflowScriptFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &workflow.State{Name: "s", Type: workflow.StateCommand, OnSuccess: "done", OnFailure: "bad",
				Spec: &workflow.CommandSpec{ScriptFile: tc.path}}
			wf := flow(st)
			wf.File = tc.wfFile
			scripts := &fakeFiles{files: tc.files}
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{tc.wantCmd: {}}}
			r := newRun(t, Options{Commands: sh, Scripts: scripts, Dir: "/p", Host: Host{AWF: map[string]string{"scripts_dir": "/g/scripts"}}})
			res, err := r.Run(context.Background(), wf, map[string]string{"n": "1", "who": "a b"})
			if strings.Join(scripts.asked, ",") != strings.Join(tc.wantAsked, ",") {
				t.Errorf("asked %q, want %q", scripts.asked, tc.wantAsked)
			}
			if fault.CodeOf(err) != tc.wantCode {
				t.Fatalf("err %v, want code %q", err, tc.wantCode)
			}
			if tc.wantCode != "" {
				if !strings.Contains(err.Error(), "script_file") || !strings.Contains(err.Error(), "next to the workflow file") {
					t.Errorf("err = %v", err)
				}
				return
			}
			if res.Status != RunSuccess || len(sh.seen) != 1 || sh.seen[0].Shown != tc.wantCmd || !sh.seen[0].Script {
				t.Errorf("status %s, ran %+v", res.Status, sh.seen)
			}
		})
	}
}

// fakeFiles serves files from a map; a missing one is fs.ErrNotExist, as the real reader says.
type fakeFiles struct {
	files map[string]string
	asked []string
}

func (f *fakeFiles) ReadPrompt(_ context.Context, path string) (string, error) {
	f.asked = append(f.asked, path)
	if s, ok := f.files[path]; ok {
		return s, nil
	}
	return "", fault.Wrap(errNotExist, fault.UserWorkflowScriptFile, "script file %s does not exist", path)
}

func (f *fakeFiles) ReadConfined(_ context.Context, root, path string) (string, error) {
	f.asked = append(f.asked, root+"|"+path)
	if s, ok := f.files[path]; ok {
		return s, nil
	}
	return "", fault.New(fault.UserTemplateReadFile, "file %s is outside the project root", path)
}
