package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/process/reaper"
)

// Tools of server-filesystem by its own annotations: read-only, and the rest (write_file,
// edit_file and move_file say destructive, create_directory only not read-only).
var (
	fsReadTools  = []string{"directory_tree", "get_file_info", "list_allowed_directories", "list_directory", "list_directory_with_sizes", "read_file", "read_media_file", "read_multiple_files", "read_text_file", "search_files"}
	fsWriteTools = []string{"create_directory", "edit_file", "move_file", "write_file"}
)

// filesystemPlugins declares server-filesystem over stdio with dir as its one allowed directory.
func filesystemPlugins(dir string) string {
	return fmt.Sprintf("plugins:\n  fs:\n    type: mcp\n    command: %s/mcp-server-filesystem\n    args: [%q]\n", binDir, dir)
}

// TestServerFilesystemReadOnly: server-filesystem bridged over stdio through `awf mcp-serve`
// under `allow: [read]`: its read-only tools are offered (as read, from its own annotations),
// its write tools hidden and refused without touching the disk, a real file is read; in split
// mode a destructive tool is refused with the seed texts. The server sees the minimal
// environment, without the model keys awf itself holds, and does not outlive mcp-serve.
func TestServerFilesystemReadOnly(t *testing.T) {
	requireServers(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "sk-fake-openai-must-not-leak")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-must-not-leak")
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("line one\nline two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serveAWF(t, filesystemPlugins(dir), map[string]any{
		"plugin_tools": []map[string]any{{"plugin": "fs", "expose": []string{"*"}}},
		"intent":       map[string]any{"allow": []string{"read"}},
	}, nil)
	ctx := context.Background()

	var listed []string
	for tl, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		name, ok := strings.CutPrefix(tl.Name, "fs_")
		if !ok {
			continue // awf's built-in read tools
		}
		listed = append(listed, name)
		if a := tl.Annotations; a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			b, _ := json.Marshal(a)
			t.Errorf("%s offered under allow [read] with annotations %s", tl.Name, b)
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, fsReadTools) {
		t.Errorf("tools offered under allow [read] = %v\nwant %v", listed, fsReadTools)
	}

	// Hidden, not missing: awf knows every tool of the server, each with the variant its own
	// annotations give.
	ops := pluginOps(t, s.root)
	for _, name := range fsReadTools {
		if ops[name] != "server read" {
			t.Errorf("plugins list: %s is %q, want server read", name, ops[name])
		}
	}
	for _, name := range fsWriteTools {
		if want := map[bool]string{true: "server write", false: "server destructive"}[name == "create_directory"]; ops[name] != want {
			t.Errorf("plugins list: %s is %q, want %s", name, ops[name], want)
		}
	}

	res := callOn(t, s.session, "fs_read_text_file", map[string]any{"path": file})
	if res.IsError || joined(res) != "line one\nline two\n" {
		t.Errorf("read_text_file = %v %q", res.IsError, joined(res))
	}
	target := filepath.Join(dir, "written.txt")
	for _, c := range []struct {
		tool, kind string
		args       map[string]any
	}{
		{"write_file", "destructive", map[string]any{"path": target, "content": "must not be written"}},
		{"edit_file", "destructive", map[string]any{"path": file, "edits": []map[string]any{{"oldText": "one", "newText": "ONE"}}}},
		{"create_directory", "write", map[string]any{"path": filepath.Join(dir, "sub")}},
		{"move_file", "destructive", map[string]any{"source": file, "destination": target}},
	} {
		res := callOn(t, s.session, "fs_"+c.tool, c.args)
		want := fmt.Sprintf("Tool 'fs_%s' is not allowed in this step: it is a %s tool (call_tool_%s) and mcp_proxy.intent.allow lists read", c.tool, c.kind, c.kind)
		if !res.IsError || !strings.HasPrefix(joined(res), want) {
			t.Errorf("%s under allow [read]: isError=%v %q\nwant %q…", c.tool, res.IsError, joined(res), want)
		}
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("write_file reached the disk: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !os.IsNotExist(err) {
		t.Errorf("create_directory reached the disk: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "line one\nline two\n" {
		t.Errorf("edit_file reached the disk: %q", b)
	}
	recs := records(t, s.activity)
	if len(recs) != 5 || recs[0]["source"] != "mcp:fs" || recs[0]["outcome"] != "success" || recs[1]["outcome"] != "refused" || recs[4]["outcome"] != "refused" {
		t.Errorf("activity records: %v", recs)
	}

	checkServerEnv(t, s.cmd.Process.Pid, "mcp-server-filesystem")

	t.Run("split mode", func(t *testing.T) {
		split := serveAWF(t, filesystemPlugins(dir), map[string]any{
			"plugin_tools": []map[string]any{{"plugin": "fs", "expose": []string{"read_text_file", "write_file"}}},
			"intent":       map[string]any{"split": true, "strict_server_validation": true},
		}, nil)
		checkSeedRefusals(t, split.session, "fs_write_file", map[string]any{"path": target, "content": "must not be written"}, "fs_read_text_file", map[string]any{"path": file})
		if _, err := os.Stat(target); !os.IsNotExist(err) {
			t.Errorf("a refused write_file reached the disk: %v", err)
		}
		closeAndCheckGone(t, split, true)
	})
	closeAndCheckGone(t, s, true)
}

// minimalEnv is what a bridged stdio server may see of awf's environment (docs/decisions/0013-bridged-mcp-servers.md: the
// minimal set, plus the entry's env:, never a model key).
func minimalEnv(key string) bool {
	switch key {
	case "PATH", "HOME", "LANG", "TERM", "TZ", "TMPDIR", "USER":
		return true
	case reaper.TokenEnv: // the start's token, which ends the server's tree with the step
		return true
	}
	return strings.HasPrefix(key, "LC_")
}

// checkServerEnv reads the environment of the server process below mcp-serve (pid) whose
// command line names exe, from /proc: only the minimal set, with the test's HOME and TMPDIR.
func checkServerEnv(t *testing.T, pid int, exe string) {
	t.Helper()
	var server int
	for _, k := range descendants(pid) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", k))
		if bytes.HasPrefix(cmdline, []byte(reaper.Arg0+"\x00")) {
			continue // the reaper that started the server names it in its own arguments
		}
		if bytes.Contains(cmdline, []byte(exe)) {
			server = k
		}
	}
	if server == 0 {
		t.Fatalf("no %s process below mcp-serve (pid %d)", exe, pid)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", server))
	if err != nil {
		t.Fatalf("environment of %s: %v", exe, err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(strings.TrimRight(string(b), "\x00"), "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
		if !minimalEnv(k) {
			t.Errorf("%s sees %s, which is not in the minimal environment", exe, k)
		}
	}
	for _, secret := range []string{"sk-fake-openai-must-not-leak", "sk-ant-fake-must-not-leak"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s sees a model key", exe)
		}
	}
	if env["HOME"] != os.Getenv("HOME") || env["TMPDIR"] != os.Getenv("TMPDIR") || env["PATH"] == "" {
		t.Errorf("%s sees HOME=%q TMPDIR=%q PATH=%q; want the test's HOME and TMPDIR and a PATH", exe, env["HOME"], env["TMPDIR"], env["PATH"])
	}
}
