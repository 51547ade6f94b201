package mcpserve

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

func TestSandboxOptions(t *testing.T) {
	allow := []tool.Variant{tool.VariantRead}
	got := sandboxOptions(toolset.Spec{Intent: toolset.Intent{Allow: allow}}, nil)
	if got.Settings.Mode != sandbox.ModeAuto || !got.Settings.Network || !reflect.DeepEqual(got.Allow, allow) {
		t.Fatalf("defaults: %+v", got)
	}
	got = sandboxOptions(toolset.Spec{Sandbox: toolset.Sandbox{Mode: "off", Network: false, Writable: []string{"w"}}}, nil)
	if got.Settings.Mode != "off" || got.Settings.Network || !reflect.DeepEqual(got.Settings.Writable, []string{"w"}) || got.Allow != nil {
		t.Fatalf("explicit: %+v", got)
	}
}

func TestProtectedFiles(t *testing.T) {
	if got := protectedFiles(toolset.Spec{}); len(got) != 0 {
		t.Fatalf("nothing declared: %v", got)
	}
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".awf"), 0o755)
	plugin := filepath.Join(project, "bin", "plug")
	os.MkdirAll(filepath.Dir(plugin), 0o755)
	os.WriteFile(plugin, []byte("#!/bin/sh\n"), 0o755)
	file := filepath.Join(project, ".awf", "plugins.yaml")
	os.WriteFile(file, []byte("plugins:\n  p:\n    command: bin/plug\n"), 0o644)
	// The parent awf resolves the plugin commands (plugins.Commands) and passes them on.
	got := protectedFiles(toolset.Spec{ActivityFile: "/r/a.jsonl", LogFile: "/r/run.log", ReadyFile: "/t/step/ready.json", PluginsFile: file, PluginCommands: plugins.Commands(file)})
	want := []string{"/r/a.jsonl", "/r/run.log", "/t/step", file, plugin}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

func TestBuildWithTheSandbox(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	// Mode off builds; auto builds and logs no warning where the kernel can sandbox (the test
	// binary is its own helper). mode required without kernel support is tested in builtins.
	for _, mode := range []string{"off", "auto"} {
		r, err := Build(context.Background(), toolset.Spec{Root: t.TempDir(), Builtins: true, Intent: toolset.DefaultIntent(), Sandbox: toolset.Sandbox{Mode: mode, Network: true}}, Deps{Logger: zap.New(core)})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		r.Close()
	}
	self, _ := os.Executable()
	if st := sandbox.Probe(self); st.Enforced && logs.Len() != 0 {
		t.Fatalf("warning logged where the sandbox works: %v", logs.All())
	}
	// A bad root is still a config error.
	_, err := Build(context.Background(), toolset.Spec{Root: "/nonexistent-root", Builtins: true, Intent: toolset.DefaultIntent()}, Deps{Logger: zap.NewNop()})
	if err == nil || fault.CodeOf(err) != fault.UserMCPServeConfig || !strings.Contains(err.Error(), "nonexistent-root") {
		t.Fatalf("bad root: %v", err)
	}
}
