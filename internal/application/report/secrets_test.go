package report

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// The report masks what the run masked: the variable an agent step names in api_key_env and the
// values of secret-named inputs, wherever they turn up (here in a step's output and an argument).
func TestWorkflowSecretsMasked(t *testing.T) {
	w := &workflow.Workflow{Order: []string{"ask", "gone", "cmd", "ask2"}, States: map[string]*workflow.State{
		"ask":  {Name: "ask", Spec: &workflow.AgentSpec{Options: map[string]any{"api_key_env": "PROVIDER_CRED"}}},
		"ask2": {Name: "ask2", Spec: &workflow.AgentSpec{Options: map[string]any{"api_key_env": "PROVIDER_CRED"}}},
		"cmd":  {Name: "cmd", Spec: &workflow.CommandSpec{Command: "x"}},
	}}
	if got := w.KeyVariables(); len(got) != 1 || got[0] != "PROVIDER_CRED" {
		t.Errorf("KeyVariables = %q", got)
	}
	in := Input{Workflow: w, Redactor: redact.New([]string{"PROVIDER_CRED=zq-provider-value-77"}),
		Record: runrecord.Record{Inputs: map[string]any{"db_password": "pw-input-value-88", "plain": "plain-value"},
			Steps: []runrecord.Step{{Name: "cmd", Output: "zq-provider-value-77 and pw-input-value-88 and plain-value"}}}}
	v := Build(in)
	out := v.Steps[0].Output
	if strings.Contains(out, "zq-provider-value-77") || strings.Contains(out, "pw-input-value-88") || !strings.Contains(out, "plain-value") {
		t.Errorf("output %q", out)
	}
	if v.Graph == nil {
		t.Error("no graph for a workflow")
	}
}

// With the variable unset, the report masks what the run masked from the mask set its record
// kept: in outputs, errors, the header's inputs and call arguments.
func TestKeptMaskSetMasksWithoutTheVariable(t *testing.T) {
	const tok = "envtok-Zq81-secret-value"
	in := Input{Redactor: redact.New(nil), Record: runrecord.Record{
		Masked: []string{tok}, Error: "failed: " + tok, Inputs: map[string]any{"url": "https://x/?t=" + tok},
		Steps: []runrecord.Step{{Name: "a", Output: "printed " + tok, Stderr: tok[2:15]}}}}
	v := Build(in)
	shown := v.Header.Error + v.Steps[0].Output + v.Steps[0].Stderr
	for _, kv := range v.Header.Inputs {
		shown += kv.Value
	}
	if strings.Contains(shown, "Zq81") || !strings.Contains(shown, redact.Mask) {
		t.Errorf("report shows %q", shown)
	}
}
