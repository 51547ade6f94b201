package toolset

import (
	"reflect"
	"testing"
)

func TestDefaultIntentIsStrictAndAllowsEveryVariant(t *testing.T) {
	if got := DefaultIntent(); !reflect.DeepEqual(got, Intent{Strict: true}) || got.Allow != nil {
		t.Fatalf("DefaultIntent() = %#v", got)
	}
}

func TestBinaryIsAWFOnlyForWhatOnlyAWFLinks(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
		want string
	}{
		{"built-ins only", Spec{Builtins: true}, SlimBinary},
		{"plugin tools", Spec{PluginTools: []PluginTools{{Plugin: "notes"}}}, AWFBinary},
		{"OTel variables", Spec{OTelEnv: map[string]string{"OTEL_TRACES_EXPORTER": "console"}}, AWFBinary},
		{"plugin commands not resolved", Spec{PluginsFile: "/p/plugins.yaml"}, AWFBinary},
		{"plugin commands resolved", Spec{PluginsFile: "/p/plugins.yaml", PluginCommands: []string{"/p/x"}}, SlimBinary},
		{"none declared", Spec{PluginsFile: "/p/plugins.yaml", PluginCommands: []string{}}, SlimBinary},
		{"commands without a plugins file", Spec{PluginCommands: nil}, SlimBinary},
	} {
		if got := tc.spec.Binary(); got != tc.want {
			t.Errorf("%s: Binary() = %q, want %q", tc.name, got, tc.want)
		}
	}
}
