package run

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func scriptState(name, file string) *workflow.State {
	return &workflow.State{Name: name, Type: workflow.StateCommand, Spec: &workflow.CommandSpec{ScriptFile: file}, OnSuccess: "ok", OnFailure: "ko"}
}

// TestStartFiles: the files a run names at its start, as the run would try them, through
// called workflows (each once, cycles stopped), leaving out paths that need a step's output.
func TestStartFiles(t *testing.T) {
	prompt := agentState("")
	prompt.Agent().Prompt, prompt.Agent().PromptFile = "", "prompts/{{.inputs.kind}}.md"
	sub := machine("sub", nil, scriptState("s", "{{.awf.scripts_dir}}/sub.sh"), callState("back", "main", nil, nil, "ok", "ko"))
	sub.File = "/proj/.awf/workflows/lib/sub.yaml"
	wf := machine("main", nil,
		scriptState("a", "a.sh"),
		scriptState("later", "{{.states.a.Output}}.sh"), // needs a step's output: not known at start
		prompt,
		callState("c", "sub", map[string]string{"x": "{{.inputs.kind}}"}, nil, "ok", "ko"),
		callState("c2", "sub", nil, nil, "ok", "ko"),
		callState("gone", "nope", nil, nil, "ok", "ko"),
	)
	wf.File = "/proj/.awf/workflows/main.yaml"
	src := &fakeSource{wfs: map[string]*workflow.Workflow{"sub": sub, "main": wf}}
	got := StartFiles(wf, StartFilesOptions{Root: "/proj", Inputs: map[string]any{"kind": "review"}, Workflows: src,
		Host: Host{AWF: map[string]string{"scripts_dir": "/home/u/.config/awf/scripts"}}})
	want := [][]string{
		{"/proj/.awf/workflows/a.sh", "/proj/a.sh"},
		{"/proj/prompts/review.md"},
		{"/proj/.awf/workflows/lib/sub.yaml"},
		{"/proj/.awf/workflows/lib/scripts/sub.sh", "/home/u/.config/awf/scripts/sub.sh"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("StartFiles:\n got %q\nwant %q", got, want)
	}
}
