package stepproxy

import (
	"context"
	"testing"
)

// TestServeBinaryPerStep: the slim awf-serve serves a step that needs nothing only awf links;
// plugin tools, the run's OTEL_* variables, or plugin commands left unresolved get awf.
func TestServeBinaryPerStep(t *testing.T) {
	resolved := func(string) []string { return []string{"/p/bin/notes"} }
	noPlugins := func(st Step) Step { st.Proxy.PluginTools = nil; return st }
	tests := []struct {
		name     string
		slim     string
		commands func(string) []string
		env      map[string]string
		step     Step
		want     string
		wantCmds []string
	}{
		{"a plain step gets the slim binary", "/usr/bin/awf-serve", resolved, nil, noPlugins(agentStep("claude")), "/usr/bin/awf-serve", []string{"/p/bin/notes"}},
		{"no slim binary installed", "", resolved, nil, noPlugins(agentStep("claude")), "/usr/bin/awf", []string{"/p/bin/notes"}},
		{"plugin tools need the plugin host", "/usr/bin/awf-serve", resolved, nil, agentStep("claude"), "/usr/bin/awf", []string{"/p/bin/notes"}},
		{"span export needs the OTLP exporters", "/usr/bin/awf-serve", resolved, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"}, noPlugins(agentStep("claude")), "/usr/bin/awf", []string{"/p/bin/notes"}},
		{"plugin commands not resolved", "/usr/bin/awf-serve", nil, nil, noPlugins(agentStep("claude")), "/usr/bin/awf", nil},
		{"none declared is resolved", "/usr/bin/awf-serve", func(string) []string { return nil }, nil, noPlugins(agentStep("claude")), "/usr/bin/awf-serve", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(nil)
			fx.svc.SlimPath, fx.svc.PluginCommands = tt.slim, tt.commands
			if tt.env != nil {
				fx.svc.Env = mapEnv(tt.env)
			}
			sess, err := fx.svc.Prepare(context.Background(), tt.step)
			if err != nil {
				t.Fatal(err)
			}
			if sess.Attach == nil || sess.Attach.Command != tt.want {
				t.Fatalf("attachment %+v, want command %s", sess.Attach, tt.want)
			}
			got := fx.built.PluginCommands
			if (got == nil) != (tt.wantCmds == nil) || len(got) != len(tt.wantCmds) || len(got) > 0 && got[0] != tt.wantCmds[0] {
				t.Fatalf("plugin commands %#v, want %#v", got, tt.wantCmds)
			}
		})
	}
}

// mapEnv is an environment of the given variables.
type mapEnv map[string]string

func (m mapEnv) Environ() []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}
