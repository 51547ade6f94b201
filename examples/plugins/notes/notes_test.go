package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/awf-dev/awf/pkg/plugin"
)

func call(t *testing.T, h func(context.Context, json.RawMessage) (plugin.Result, error), args string) plugin.Result {
	t.Helper()
	res, err := h(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("call(%s): %v", args, err)
	}
	return res
}

func TestStorePersistsAcrossOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("Open created the directory before any write: %v", err)
	}
	if replaced, err := s.Put(Note{Key: "a", Text: "first\nbody", Tags: []string{"x"}, Priority: "high"}); err != nil || replaced {
		t.Fatalf("Put new = %v, %v", replaced, err)
	}
	if replaced, err := s.Put(Note{Key: "a", Text: "second", Priority: "low"}); err != nil || !replaced {
		t.Fatalf("Put existing = %v, %v", replaced, err)
	}
	if _, err := s.Put(Note{Key: "b/c", Text: "t", Tags: []string{"x"}, Priority: "normal"}); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s2.Get("a")
	if err != nil || n.Text != "second" || n.Priority != "low" || n.Updated.IsZero() {
		t.Fatalf("reopened Get = %+v, %v", n, err)
	}
	if err := s2.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s2.Delete("a"); err != errNotFound {
		t.Fatalf("second Delete = %v, want errNotFound", err)
	}
	s3, _ := Open(dir)
	if _, err := s3.Get("a"); err != errNotFound {
		t.Fatalf("deleted note survived a reopen: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("store left temp files behind: %v", entries)
	}
}

func TestStoreRejectsCorruptFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fileName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "not a notes file") {
		t.Fatalf("Open of a corrupt file = %v", err)
	}
}

func TestStoreList(t *testing.T) {
	s, _ := Open(t.TempDir())
	for _, n := range []Note{
		{Key: "todo/b", Text: "B", Tags: []string{"work"}},
		{Key: "todo/a", Text: strings.Repeat("x", 100)},
		{Key: "idea", Text: "I", Tags: []string{"work"}},
	} {
		if _, err := s.Put(n); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		prefix, tag string
		limit       int
		keys        []string
		total       int
	}{
		{"", "", 0, []string{"idea", "todo/a", "todo/b"}, 3},
		{"todo/", "", 0, []string{"todo/a", "todo/b"}, 2},
		{"", "work", 0, []string{"idea", "todo/b"}, 2},
		{"", "", 1, []string{"idea"}, 3},
		{"zzz", "", 0, nil, 0},
	}
	for _, tt := range tests {
		got, total := s.List(tt.prefix, tt.tag, tt.limit)
		var keys []string
		for _, g := range got {
			keys = append(keys, g.Key)
		}
		if strings.Join(keys, ",") != strings.Join(tt.keys, ",") || total != tt.total {
			t.Errorf("List(%q,%q,%d) = %v (%d), want %v (%d)", tt.prefix, tt.tag, tt.limit, keys, total, tt.keys, tt.total)
		}
	}
	got, _ := s.List("todo/a", "", 0)
	if len([]rune(got[0].Title)) != 81 {
		t.Errorf("title not cut to 80 characters plus ellipsis: %q", got[0].Title)
	}
}

func TestInitConfig(t *testing.T) {
	tests := []struct {
		cfg, want string
	}{
		{`{}`, "needs dir"},
		{`{"dir":""}`, "needs dir"},
		{`{"dir":"x","other":1}`, "unknown field"},
		{`{"dir":1}`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		err := (&notes{}).init(context.Background(), json.RawMessage(tt.cfg))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("init(%s) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

func TestOperations(t *testing.T) {
	n := &notes{}
	if _, err := n.opGet(context.Background(), json.RawMessage(`{"key":"a"}`)); err == nil {
		t.Fatal("operation before Init succeeded")
	}
	dir := t.TempDir()
	if err := n.init(context.Background(), json.RawMessage(`{"dir":`+strconv.Quote(dir)+`}`)); err != nil {
		t.Fatal(err)
	}
	if r := call(t, n.opPut, `{"key":"k","text":"hello","tags":["t"]}`); r.IsError || r.Content[0].Text != `created note "k"` {
		t.Fatalf("put = %+v", r)
	}
	if r := call(t, n.opPut, `{"key":"k","text":"hello2","meta":{"priority":"high"}}`); r.Content[0].Text != `updated note "k"` {
		t.Fatalf("second put = %+v", r)
	}
	r := call(t, n.opGet, `{"key":"k"}`)
	var got Note
	if err := json.Unmarshal(r.Content[0].JSON, &got); err != nil || got.Text != "hello2" || got.Priority != "high" {
		t.Fatalf("get = %s, %v", r.Content[0].JSON, err)
	}
	r = call(t, n.opList, `{}`)
	if !strings.Contains(string(r.Content[0].JSON), `"total":1`) {
		t.Errorf("list = %s", r.Content[0].JSON)
	}
	if r := call(t, n.opGet, `{"key":"missing"}`); !r.IsError || !strings.Contains(r.ErrorMessage, "notes_list") {
		t.Errorf("get missing = %+v", r)
	}
	if r := call(t, n.opDelete, `{"key":"k"}`); r.IsError {
		t.Errorf("delete = %+v", r)
	}
	if r := call(t, n.opDelete, `{"key":"k"}`); !r.IsError {
		t.Errorf("delete of a missing note succeeded: %+v", r)
	}
	r = call(t, n.opList, `{}`)
	if !strings.Contains(string(r.Content[0].JSON), `"notes":[]`) {
		t.Errorf("empty list = %s, want an empty array", r.Content[0].JSON)
	}
	if _, err := n.opPut(context.Background(), json.RawMessage(`{"key":"k","text":"x","bogus":true}`)); err == nil {
		t.Error("unknown argument accepted")
	}
}

func TestPluginDeclarationIsValid(t *testing.T) {
	if err := newPlugin().Validate(); err != nil {
		t.Fatal(err)
	}
}
