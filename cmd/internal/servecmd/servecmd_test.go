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

// TestServesEarly: awf-serve answers the client before decoding the config only when the parent
// wrote the config for it (serve_with), never by what the config's bytes happen to spell.
func TestServesEarly(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	tests := []struct {
		name string
		path string
		data string
		want bool
	}{
		{"no config", "", "", true},
		{"written for awf-serve", "/c.json", `{"serve_with":"awf-serve","root_dir":"/src/awf-plugins"}`, true},
		{"written for awf", "/c.json", `{"serve_with":"awf","plugin_tools":[{"plugin":"notes","expose":["*"]}]}`, false},
		{"written by hand", "/c.json", `{"root_dir":"/src/app"}`, false},
		{"not JSON", "/c.json", `root_dir: /tmp`, false},
	}
	for _, tt := range tests {
		if got := servesEarly(tt.path, []byte(tt.data)); got != tt.want {
			t.Errorf("%s: servesEarly = %v, want %v", tt.name, got, tt.want)
		}
	}
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	if servesEarly("/c.json", []byte(`{"serve_with":"awf-serve"}`)) {
		t.Error("span export asked of the environment: the step must wait for a possible hand-over")
	}
}
