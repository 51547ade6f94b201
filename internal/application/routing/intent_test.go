package routing

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestIntentSettingsConverters(t *testing.T) {
	tests := []struct {
		name string
		got  IntentSettings
		want IntentSettings
	}{
		{"workflow default", IntentSettingsFromWorkflow(workflow.DefaultIntent()), IntentSettings{Allow: tool.Variants, Strict: true}},
		{"workflow block", IntentSettingsFromWorkflow(workflow.IntentSettings{Split: true, Allow: []tool.Variant{tool.VariantRead}, RequireDeclaration: true}),
			IntentSettings{Split: true, Allow: []tool.Variant{tool.VariantRead}, RequireDeclaration: true}},
		{"toolset default", IntentSettingsFromToolset(toolset.DefaultIntent()), IntentSettings{Strict: true}},
		{"toolset split", IntentSettingsFromToolset(toolset.Intent{Split: true, Strict: true, RequireDeclaration: true}), IntentSettings{Split: true, Strict: true, RequireDeclaration: true}},
		{"toolset lenient", IntentSettingsFromToolset(toolset.Intent{Allow: []tool.Variant{tool.VariantWrite}}),
			IntentSettings{Allow: []tool.Variant{tool.VariantWrite}}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	// nil allows everything; an empty list allows nothing.
	if !DefaultIntentSettings().Allows(tool.VariantDestructive) || (IntentSettings{Allow: []tool.Variant{}}).Allows(tool.VariantRead) {
		t.Error("Allows: nil must mean all, empty must mean none")
	}
	// The exposure keeps its own copy.
	allow := []tool.Variant{tool.VariantRead}
	e := NewExposure(nil, IntentSettings{Allow: allow})
	allow[0] = tool.VariantDestructive
	if got := e.Settings().Allow; got[0] != tool.VariantRead {
		t.Errorf("exposure settings changed with the caller's slice: %v", got)
	}
}
