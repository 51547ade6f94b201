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

func TestPlainConfig(t *testing.T) {
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"no config", "", true},
		{"built-ins only", `{"root_dir":"/src/app","activity_file":"/run/a.jsonl","run_id":"r","step":"s"}`, true},
		{"plugin tools", `{"plugin_tools":[{"plugin":"notes","expose":["*"]}]}`, false},
		{"plugins file", `{"plugins_file":"/p/plugins.yaml","plugin_commands":[]}`, false},
		{"a key in capitals", `{"PLUGIN_TOOLS":[{"plugin":"notes"}]}`, false},
		{"otel variables", `{"otel_env":{"OTEL_TRACES_EXPORTER":"console"}}`, false},
		{"an escaped key", `{"plugin\u005ftools":[]}`, false},
		{"a key through a Unicode fold", "{\"plugin_tool\u017f\":[]}", false},
		{"a root path naming plugins", `{"root_dir":"/src/awf-plugins"}`, false},
		{"the first byte outside ASCII", "{\"root_dir\":\"/a\x80\"}", false},
		{"the last ASCII byte", "{\"root_dir\":\"/a\x7f\"}", true},
	}
	for _, tt := range tests {
		if got := plainConfig([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: plainConfig = %v, want %v", tt.name, got, tt.want)
		}
	}
}
