package servecmd

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// The serving process masks the values of the plugins file the plugin host reads: the
// config's plugins_file, else the root's .awf/plugins.yaml when the step has plugin tools;
// a step without either reads none.
func TestRedactorForMasksThePluginsFile(t *testing.T) {
	tools := []toolset.PluginTools{{Plugin: "p", Expose: []string{"*"}}}
	for _, c := range []struct {
		name string
		cfg  toolset.Spec
		want string
	}{
		{"plugins_file", toolset.Spec{PluginsFile: "/p/plugins.yaml", Root: "/r", PluginTools: tools}, "/p/plugins.yaml"},
		{"root's file", toolset.Spec{Root: "/r", PluginTools: tools}, "/r/.awf/plugins.yaml"},
		{"no plugins", toolset.Spec{Root: "/r"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := ""
			o := Options{MaskPlugins: func(file string, red *redact.Redactor) {
				read = file
				red.AddValue("plugin p TOKEN_X", "some-innocent-value-123")
			}}
			red := redactorFor(o, c.cfg)
			if read != c.want {
				t.Fatalf("read %q, want %q", read, c.want)
			}
			if masked := red.String("x some-innocent-value-123") == "x "+redact.Mask; masked != (c.want != "") {
				t.Errorf("value masked: %v", masked)
			}
		})
	}
	if red := redactorFor(Options{}, toolset.Spec{PluginsFile: "/p/plugins.yaml"}); red == nil {
		t.Error("the slim binary (no MaskPlugins) gets no redactor")
	}
}
