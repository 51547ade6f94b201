package validate

import (
	"context"
	"io/fs"
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

type scriptFiles map[string]string

func (f scriptFiles) ReadPrompt(_ context.Context, path string) (string, error) {
	if s, ok := f[path]; ok {
		return s, nil
	}
	return "", fs.ErrNotExist
}

func TestScriptCheck(t *testing.T) {
	files := scriptFiles{
		"/p/wf/py.py":   "#!/usr/bin/env python3\nprint('{{.inputs.x}}')\n",
		"/p/wf/ok.py":   "#!/usr/bin/env python3\nprint(f'{{literal}}')\n",
		"/p/bash.sh":    "#!/bin/bash\n(( {{.inputs.x}} > 1 ))\n",
		"/p/wf/fine.sh": "#!/bin/sh\necho \"{{.inputs.x}}\"\n",
		"/abs/plain.sh": "sh -c 'echo {{.inputs.x}}'",
	}
	tests := []struct {
		path string
		want []string
	}{
		{"py.py", []string{fault.UserTemplateInterpreter}},
		{"ok.py", nil},
		{"bash.sh", []string{fault.UserTemplateShellPlace}},
		{"fine.sh", nil},
		{"/abs/plain.sh", []string{fault.UserTemplateShellPlace}},
		{"missing.sh", nil},
		{"{{.awf.scripts_dir}}/py.py", nil},
	}
	for _, tt := range tests {
		wf := &workflow.Workflow{File: "/p/wf/w.yaml", Order: []string{"s"}, States: map[string]*workflow.State{
			"s": {Name: "s", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{ScriptFile: tt.path}}}}
		var got []string
		for _, d := range ScriptCheck(files, "/p")(context.Background(), wf) {
			got = append(got, d.Code)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: codes %v, want %v", tt.path, got, tt.want)
		}
	}
}
