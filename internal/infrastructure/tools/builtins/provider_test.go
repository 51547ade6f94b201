package builtins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// newTestProvider returns a provider rooted in a fresh temporary directory.
func newTestProvider(t *testing.T) (*Provider, string) {
	t.Helper()
	root := t.TempDir()
	p, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, p.Root()
}

// call runs a tool with arguments given as a Go value (or a json.RawMessage).
func call(t *testing.T, p *Provider, name string, args any) tool.Result {
	t.Helper()
	raw, ok := args.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	res, err := p.CallTool(context.Background(), name, raw)
	if err != nil {
		t.Fatalf("%s: unexpected provider error: %v", name, err)
	}
	return res
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantOK(t *testing.T, res tool.Result, contains ...string) string {
	t.Helper()
	txt := res.JoinedText()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", txt)
	}
	for _, c := range contains {
		if !strings.Contains(txt, c) {
			t.Fatalf("result does not contain %q:\n%s", c, txt)
		}
	}
	return txt
}

func wantErr(t *testing.T, res tool.Result, contains ...string) string {
	t.Helper()
	txt := res.JoinedText()
	if !res.IsError {
		t.Fatalf("expected an error result, got: %s", txt)
	}
	for _, c := range contains {
		if !strings.Contains(txt, c) {
			t.Fatalf("error does not contain %q:\n%s", c, txt)
		}
	}
	return txt
}

func TestNewValidatesOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	mustWrite(t, file, "x")
	tests := []struct {
		name string
		opts Options
		code string
	}{
		{"no root", Options{}, "USER.BUILTINS.NO_ROOT"},
		{"missing root", Options{Root: "/definitely/not/here"}, "USER.BUILTINS.BAD_ROOT"},
		{"root is a file", Options{Root: file}, "USER.BUILTINS.BAD_ROOT"},
		{"negative cap", Options{Root: t.TempDir(), MaxOutputBytes: -1}, "USER.BUILTINS.BAD_OPTION"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.code) {
				t.Fatalf("want %s, got %v", tt.code, err)
			}
		})
	}
}

func TestNewResolvesSymlinkedRoot(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	p, err := New(Options{Root: link})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if p.Root() != want {
		t.Fatalf("root = %s, want %s", p.Root(), want)
	}
	if p.maxOut != DefaultMaxOutputBytes {
		t.Fatalf("default cap = %d", p.maxOut)
	}
}

func TestListToolsDefinitions(t *testing.T) {
	p, _ := newTestProvider(t)
	defs, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type hints struct{ ro, destr, open bool }
	want := map[string]hints{
		"Read": {true, false, false}, "Glob": {true, false, false}, "Grep": {true, false, false},
		"Write": {false, false, false}, "Edit": {false, false, false}, "Bash": {false, true, true},
	}
	argTypes := map[string]reflect.Type{
		"Read": reflect.TypeOf(readArgs{}), "Write": reflect.TypeOf(writeArgs{}), "Edit": reflect.TypeOf(editArgs{}),
		"Bash": reflect.TypeOf(bashArgs{}), "Glob": reflect.TypeOf(globArgs{}), "Grep": reflect.TypeOf(grepArgs{}),
	}
	if len(defs) != len(want) {
		t.Fatalf("got %d tools, want %d", len(defs), len(want))
	}
	for _, d := range defs {
		h, ok := want[d.Name]
		if !ok {
			t.Fatalf("unexpected tool %s", d.Name)
		}
		a := d.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil || a.IdempotentHint == nil || a.Title == "" {
			t.Fatalf("%s: every hint and the title must be set: %+v", d.Name, a)
		}
		if *a.ReadOnlyHint != h.ro || *a.DestructiveHint != h.destr || *a.OpenWorldHint != h.open {
			t.Fatalf("%s: hints %+v, want %+v", d.Name, a, h)
		}
		if d.Source != tool.BuiltinSource {
			t.Fatalf("%s: source %q", d.Name, d.Source)
		}
		if tool.CallWith(a) == tool.VariantRead != h.ro {
			t.Fatalf("%s: call_with %s", d.Name, tool.CallWith(a))
		}
		var schema struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			t.Fatalf("%s: schema: %v", d.Name, err)
		}
		if schema.Type != "object" || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			t.Fatalf("%s: schema must be a closed object", d.Name)
		}
		var props []string
		for k := range schema.Properties {
			props = append(props, k)
		}
		sort.Strings(props)
		fields := append([]string(nil), fieldsOf(argTypes[d.Name]).names...)
		sort.Strings(fields)
		if !reflect.DeepEqual(props, fields) {
			t.Fatalf("%s: schema properties %v differ from decoded arguments %v", d.Name, props, fields)
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Fatalf("%s: required %q is not a property", d.Name, r)
			}
		}
	}
	defs[0].Name = "changed"
	again, _ := p.ListTools(context.Background())
	if again[0].Name == "changed" {
		t.Fatal("ListTools must return a copy")
	}
}

func TestCallToolUnknownAndClosed(t *testing.T) {
	p, _ := newTestProvider(t)
	if _, err := p.CallTool(context.Background(), "Nope", nil); err == nil || !strings.Contains(err.Error(), "UNKNOWN_TOOL") {
		t.Fatalf("unknown tool: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal("Close must be idempotent")
	}
	if _, err := p.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"x"}`)); err == nil {
		t.Fatal("a closed provider must refuse calls")
	}
}

func TestCallToolRejectsBadArguments(t *testing.T) {
	p, root := newTestProvider(t)
	mustWrite(t, filepath.Join(root, "f.txt"), "a\n")
	tests := []struct {
		tool, args, want string
	}{
		{"Read", `{"file_path":"f.txt","offset":-1}`, `"offset" must be >= 0`},
		{"Read", `{"file_path":"f.txt","offset":"5"}`, `"offset" must be an integer`},
		{"Read", `{"file_path":"f.txt","limit":0}`, `"limit" must be >= 1`},
		{"Read", `{"file_path":"f.txt","bogus":1}`, `unknown argument "bogus"`},
		{"Read", `{"FILE_PATH":"f.txt"}`, `unknown argument "FILE_PATH"`},
		{"Read", `{}`, `missing required argument "file_path"`},
		{"Read", `[1]`, `must be a JSON object`},
		{"Read", `{"file_path":`, `not a valid JSON object`},
		{"Write", `{"file_path":"g.txt"}`, `missing required argument "content"`},
		{"Write", `{"file_path":"g.txt","content":5}`, `"content" must be a string`},
		{"Edit", `{"file_path":"f.txt","old_string":"a","new_string":"b","replace_all":"yes"}`, `"replace_all" must be a boolean`},
		{"Bash", `{"command":"true","timeout":"1000"}`, `"timeout" must be an integer`},
		{"Bash", `{"command":"true","timeout":1.5}`, `"timeout" must be an integer, got 1.5`},
		{"Bash", `{"command":"true","timeout":600001}`, `over the maximum of 600000 ms`},
		{"Bash", `{"command":"true","timeout":0}`, `at least 1 millisecond`},
		{"Bash", `{"command":"   "}`, `"command" is empty`},
		{"Glob", `{"pattern":""}`, `"pattern" is empty`},
		{"Grep", `{"pattern":"x","-A":-1}`, `"-A" must be >= 0`},
		{"Grep", `{"pattern":"x","output_mode":"lines"}`, `"output_mode" must be`},
		{"Grep", `{"pattern":"x","-i":1}`, `"-i" must be a boolean`},
		{"Grep", `{"pattern":"(x"}`, `invalid regular expression`},
		{"Grep", `{"pattern":"x","type":"klingon"}`, `unknown file type "klingon"`},
		{"Grep", `{"pattern":"x","glob":"[x"}`, `"glob" is not a valid glob`},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			wantErr(t, call(t, p, tt.tool, json.RawMessage(tt.args)), tt.want)
		})
	}
}

func totalAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}
