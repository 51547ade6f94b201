package mcpserve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// TestFanOutFollowsTheDefinitionInEveryMode: a search widens the server's CPUs whatever name the
// agent calls it by. The server used to match the names "Grep" and "Glob", which split mode
// never sends (the agent calls call_tool_read there); the built-in provider now begins the
// fan-out itself, from its tools' definitions.
func TestFanOutFollowsTheDefinitionInEveryMode(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	direct := func(name, args string) (string, string) { return name, args }
	split := func(name, args string) (string, string) {
		return "call_tool_read", `{"name":"` + name + `","args":` + args + `}`
	}
	for _, tc := range []struct {
		name    string
		split   bool
		tool    string
		args    string
		fansOut int32
	}{
		{"Grep", false, "Grep", `{"pattern":"needle"}`, 1},
		{"Glob", false, "Glob", `{"pattern":"*.txt"}`, 1},
		{"Read", false, "Read", `{"file_path":"a.txt"}`, 0},
		{"split Grep", true, "Grep", `{"pattern":"needle"}`, 1},
		{"split Glob", true, "Glob", `{"pattern":"*.txt"}`, 1},
		{"split Read", true, "Read", `{"file_path":"a.txt"}`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var begun, ended atomic.Int32
			deps := withLogger(Deps{BeginFanOut: func() func() { begun.Add(1); return func() { ended.Add(1) } }})
			cfg := toolset.Spec{Root: root, Builtins: true, Intent: toolset.DefaultIntent(), Sandbox: toolset.Sandbox{Mode: "off"}}
			cfg.Intent.Split = tc.split
			router, err := Build(context.Background(), cfg, deps)
			if err != nil {
				t.Fatal(err)
			}
			defer router.Close()
			name, args := direct(tc.tool, tc.args)
			if tc.split {
				name, args = split(tc.tool, tc.args)
			}
			res := routing.NewExposure(router, routing.IntentSettingsFromToolset(cfg.Intent)).CallTool(context.Background(), name, json.RawMessage(args))
			if res.IsError {
				t.Fatalf("%s: %s", name, res.JoinedText())
			}
			if begun.Load() != tc.fansOut || ended.Load() != tc.fansOut {
				t.Fatalf("%s through %s: fan-out begun %d, ended %d; want %d", tc.tool, name, begun.Load(), ended.Load(), tc.fansOut)
			}
		})
	}
}
