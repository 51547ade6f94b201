package mcpserve_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/tests/testkit"
)

func TestListsExactlyTheSixBuiltins(t *testing.T) {
	s := start(t, nil)
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		byName[tl.Name] = tl
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "Bash,Edit,Glob,Grep,Read,Write" {
		t.Fatalf("tools = %v", names)
	}
	for _, ro := range []string{"Read", "Glob", "Grep"} {
		a := byName[ro].Annotations
		if a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s annotations %+v: want read-only, not destructive", ro, a)
		}
	}
	for _, w := range []string{"Write", "Edit"} {
		a := byName[w].Annotations
		if a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s annotations %+v: want writer, not destructive", w, a)
		}
	}
	if a := byName["Bash"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
		t.Errorf("Bash annotations %+v: want destructive, open-world", a)
	}
	schema, _ := json.Marshal(byName["Read"].InputSchema)
	for _, field := range []string{"file_path", "offset", "limit"} {
		if !strings.Contains(string(schema), field) {
			t.Errorf("Read schema lacks %s: %s", field, schema)
		}
	}
	// The server writes its ready file right after it lets tools/list through.
	var b []byte
	if !testkit.Eventually(5*time.Second, func() bool {
		b, _ = os.ReadFile(s.ready)
		return strings.Contains(string(b), `"Read"`)
	}) {
		t.Errorf("ready file: %s", b)
	}
}

func TestToolsSucceedAndFail(t *testing.T) {
	s := start(t, nil)
	file := s.write(t, "src/a.go", "package a\n\nfunc Hello() string { return \"hello\" }\n", 0o640)
	s.write(t, "src/b.go", "package a\n\nvar x = 1\n", 0o644)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("top secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(s.root, "escape")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(s.root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tool    string
		args    any
		isError bool
		want    string
	}{
		{"read numbered", "Read", map[string]any{"file_path": file}, false, "Hello"},
		{"read relative offset", "Read", map[string]any{"file_path": "src/a.go", "offset": 3, "limit": 1}, false, "3\tfunc Hello"},
		{"read wrong type", "Read", map[string]any{"file_path": file, "offset": "two"}, true, "offset"},
		{"read negative offset", "Read", map[string]any{"file_path": file, "offset": -1}, true, "offset"},
		{"read missing arg", "Read", map[string]any{}, true, "file_path"},
		{"read fifo refused", "Read", map[string]any{"file_path": fifo}, true, ""},
		{"read directory refused", "Read", map[string]any{"file_path": s.root}, true, ""},
		{"read symlink escape", "Read", map[string]any{"file_path": "escape/secret.txt"}, true, "outside"},
		{"read absolute outside", "Read", map[string]any{"file_path": outside}, true, "outside"},
		{"write through symlinked dir", "Write", map[string]any{"file_path": "escape/new.txt", "content": "x"}, true, "outside"},
		{"edit non unique", "Edit", map[string]any{"file_path": file, "old_string": "a", "new_string": "b"}, true, ""},
		{"edit empty old", "Edit", map[string]any{"file_path": file, "old_string": "", "new_string": "b"}, true, ""},
		{"edit same", "Edit", map[string]any{"file_path": file, "old_string": "Hello", "new_string": "Hello"}, true, ""},
		{"edit ok", "Edit", map[string]any{"file_path": file, "old_string": "\"hello\"", "new_string": "\"bonjour\""}, false, ""},
		{"glob doublestar", "Glob", map[string]any{"pattern": "**/*.go"}, false, "b.go"},
		{"grep content", "Grep", map[string]any{"pattern": "bonjour", "output_mode": "content"}, false, "a.go:3:"},
		{"grep files", "Grep", map[string]any{"pattern": "package"}, false, "b.go"},
		{"bash ok", "Bash", map[string]any{"command": "echo hi; echo err >&2"}, false, "hi"},
		{"bash exit code kept", "Bash", map[string]any{"command": "echo out; echo bad >&2; exit 3"}, true, "3"},
		{"bash timeout", "Bash", map[string]any{"command": "sleep 30", "timeout": 300}, true, "timed out"},
		{"bash string timeout", "Bash", map[string]any{"command": "true", "timeout": "soon"}, true, "timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, isErr := s.call(t, tc.tool, tc.args)
			if isErr != tc.isError || !strings.Contains(got, tc.want) {
				t.Fatalf("isError=%v (want %v), text=%q (want %q)", isErr, tc.isError, got, tc.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("took %s", d)
			}
		})
	}
	// The edit kept the file's mode and did the one replacement.
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("mode after edit: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "bonjour") {
		t.Fatalf("edit not applied: %s", b)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "new.txt")); err == nil {
		t.Fatal("Write escaped the root through a symlinked directory")
	}
	// One activity record per call, with outcome and source.
	recs := s.records(t)
	if len(recs) != len(tests) {
		t.Fatalf("%d activity records for %d calls", len(recs), len(tests))
	}
	for i, r := range recs {
		if r["tool"] != tests[i].tool || r["run_id"] != "run-test" || r["step"] != "step-test" {
			t.Errorf("record %d: %v", i, r)
		}
		want := "success"
		if tests[i].isError {
			want = "error"
		}
		if r["outcome"] != want {
			t.Errorf("record %d (%s) outcome %v, want %s", i, tests[i].name, r["outcome"], want)
		}
	}
}
