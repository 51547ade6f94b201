package mcpserve

import (
	"bytes"
	"slices"
	"testing"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

func TestEnvPassthroughTravelsAndWins(t *testing.T) {
	b, err := Encode(toolset.Spec{Builtins: true, HideEnv: []string{"MODEL_KEY"}, EnvPassthrough: []string{"GITHUB_TOKEN"}})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Decode(bytes.NewReader(b))
	if err != nil || !slices.Equal(spec.EnvPassthrough, []string{"GITHUB_TOKEN"}) {
		t.Fatalf("round trip: %+v %v\n%s", spec, err, b)
	}
	env := []string{"A=1", "MODEL_KEY=k", "GITHUB_TOKEN=t", "OTHER=2"}
	if got := hideEnv(env, []string{"MODEL_KEY", "GITHUB_TOKEN"}, []string{"GITHUB_TOKEN"}); !slices.Equal(got, []string{"A=1", "GITHUB_TOKEN=t", "OTHER=2"}) {
		t.Errorf("hideEnv = %v", got)
	}
	if got := hideEnv(env, nil, nil); !slices.Equal(got, env) {
		t.Errorf("nothing hidden: %v", got)
	}
}
