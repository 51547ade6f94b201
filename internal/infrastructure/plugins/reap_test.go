package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/process/reaper/reapertest"
)

// TestPluginProcessesEndWithThePlugin: a plugin whose command starts a setsid child and a
// double-forked one before it execs the real plugin leaves neither running once the host has
// stopped it; each touches a marker for as long as it lives.
func TestPluginProcessesEndWithThePlugin(t *testing.T) {
	echo := plugintest.Build(t, "echo", "notes")["echo"] // before HOME moves: go build keeps its cache there
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("TMPDIR", dir)
	esc := reapertest.New(dir)
	leaver := filepath.Join(dir, "leaver")
	script := "#!/bin/sh\n" + esc.Script() + "exec " + echo + " \"$@\"\n"
	if err := os.WriteFile(leaver, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fmt.Sprintf("  leaver:\n    command: %s\n", leaver), Options{})
	if res := f.exec(t, "leaver", "echo", `{"text":"hi"}`); res.IsError || res.JoinedText() != "hi" {
		t.Fatalf("the plugin did not answer: %s", res.JoinedText())
	}
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	esc.CheckGone(t)
}
