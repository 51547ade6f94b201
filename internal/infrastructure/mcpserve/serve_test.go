package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

func TestHideEnvKeepsStepKeysFromBash(t *testing.T) {
	t.Setenv("MY_LLM_KEY", "sk-very-secret")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("AWF_VISIBLE", "yes")
	r, err := Build(context.Background(), toolset.Spec{Root: t.TempDir(), Builtins: true, HideEnv: []string{"MY_LLM_KEY"}}, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := r.CallTool(context.Background(), "Bash", json.RawMessage(`{"command":"env"}`))
	out := res.JoinedText()
	if res.IsError || !strings.Contains(out, "AWF_VISIBLE=yes") {
		t.Fatalf("env call failed: %s", out)
	}
	for _, secret := range []string{"sk-very-secret", "sk-ant-secret"} {
		if strings.Contains(out, secret) {
			t.Errorf("Bash saw %s", secret)
		}
	}
}
