package run

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestTemplatedRootOutside(t *testing.T) {
	st := &workflow.State{Name: "a"}
	for _, tc := range []struct {
		raw, resolved, root string
		refused             bool
	}{
		{"{{.inputs.sub}}", "/proj/sub", "/proj", false},
		{"{{.inputs.sub}}", "/proj", "/proj", false},
		{"{{.inputs.sub}}", "/proj/a/../b", "/proj", false},
		{"{{.inputs.sub}}", "/proj/../etc", "/proj", true},
		{"{{.inputs.sub}}", "/etc", "/proj", true},
		{"{{.inputs.sub}}", "/projx", "/proj", true},
		{"x/{{.inputs.sub}}", "/proj/x/../../home", "/proj", true},
		{"{{.inputs.sub}}", "/proj/..foo", "/proj", false},
		{"../elsewhere", "/proj/../elsewhere", "/proj", false}, // literal: the author's choice
		{"/abs", "/abs", "/proj", false},
		{"{{.inputs.sub}}", "/etc", "", false}, // no project root known
	} {
		err := templatedRootOutside(st, tc.raw, tc.resolved, tc.root)
		if (err != nil) != tc.refused {
			t.Errorf("%s → %s in %s: err=%v, refused want %v", tc.raw, tc.resolved, tc.root, err, tc.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "USER.AGENT.ROOT_OUTSIDE_PROJECT") && !strings.Contains(err.Error(), "outside the project root") {
			t.Errorf("unclear error: %v", err)
		}
	}
}
