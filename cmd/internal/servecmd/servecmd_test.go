package servecmd

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

func TestNeedsAWF(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name string
		cfg  toolset.Spec
		env  map[string]string
		want bool
	}{
		{"built-ins only", toolset.Spec{Builtins: true}, nil, false},
		{"plugin commands resolved", toolset.Spec{PluginsFile: "/p/plugins.yaml", PluginCommands: []string{"/p/x"}}, nil, false},
		{"none declared", toolset.Spec{PluginsFile: "/p/plugins.yaml", PluginCommands: []string{}}, nil, false},
		{"plugin commands not resolved", toolset.Spec{PluginsFile: "/p/plugins.yaml"}, nil, true},
		{"plugin tools", toolset.Spec{PluginTools: []toolset.PluginTools{{Plugin: "notes"}}}, nil, true},
		{"an OTLP endpoint", toolset.Spec{}, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"}, true},
		{"exporter none", toolset.Spec{}, map[string]string{"OTEL_TRACES_EXPORTER": "none"}, false},
	}
	for _, tt := range tests {
		if got := NeedsAWF(tt.cfg, env(tt.env)); got != tt.want {
			t.Errorf("%s: NeedsAWF = %v, want %v", tt.name, got, tt.want)
		}
	}
}
