package builtins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestApplyEdit(t *testing.T) {
	tests := []struct {
		name, content, old, new string
		all                     bool
		want                    string
		n                       int
		err                     string
	}{
		{"unique", "a b c", "b", "B", false, "a B c", 1, ""},
		{"delete", "a b c", " b", "", false, "a c", 1, ""},
		{"multi-line", "x\ny\nz\n", "y\nz", "Y", false, "x\nY\n", 1, ""},
		{"replace all", "a a a", "a", "b", true, "b b b", 3, ""},
		{"replace all unique", "a b", "a", "c", true, "c b", 1, ""},
		{"non-unique refused", "dup dup", "dup", "x", false, "", 0, "occurs 2 times; include more surrounding lines"},
		{"empty old refused", "abc", "", "x", false, "", 0, "old_string is empty"},
		{"same refused", "abc", "b", "b", false, "", 0, "identical"},
		{"absent", "abc", "z", "y", false, "", 0, "not found"},
		{"absent on empty file", "", "z", "y", false, "", 0, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := applyEdit(tt.content, tt.old, tt.new, tt.all)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("want error %q, got %v", tt.err, err)
				}
				return
			}
			if err != nil || got != tt.want || n != tt.n {
				t.Fatalf("got %q, %d, %v; want %q, %d", got, n, err, tt.want, tt.n)
			}
		})
	}
}

func TestEdit(t *testing.T) {
	p, root := newTestProvider(t)
	path := filepath.Join(root, "script.sh")
	mustWrite(t, path, "#!/bin/sh\necho one\necho one\n")
	if err := os.Chmod(path, 0o750); err != nil {
		t.Fatal(err)
	}
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": "script.sh", "old_string": "echo one", "new_string": "echo two"}), "occurs 2 times", "replace_all")
	if b, _ := os.ReadFile(path); string(b) != "#!/bin/sh\necho one\necho one\n" {
		t.Fatalf("a refused edit changed the file: %q", b)
	}
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": "script.sh", "old_string": "", "new_string": "x"}), "old_string is empty")
	wantOK(t, call(t, p, "Edit", map[string]any{"file_path": "script.sh", "old_string": "echo one", "new_string": "echo two", "replace_all": true}), "Replaced 2 occurrences")
	wantOK(t, call(t, p, "Edit", map[string]any{"file_path": "script.sh", "old_string": "#!/bin/sh", "new_string": "#!/bin/bash"}), "Replaced 1 occurrence in")
	b, _ := os.ReadFile(path)
	if string(b) != "#!/bin/bash\necho two\necho two\n" {
		t.Fatalf("content %q", b)
	}
	if m := fileMode(t, path); m.Perm() != 0o750 {
		t.Fatalf("mode became %v", m)
	}
	noTempLeft(t, root)
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": "missing.txt", "old_string": "a", "new_string": "b"}), "does not exist")
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": ".", "old_string": "a", "new_string": "b"}), "is a directory")
}

func TestEditSymlinkEscape(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "f.txt"), "keep me")
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink(filepath.Join(outside, "f.txt"), filepath.Join(root, "f-link"))
	for _, path := range []string{"out/f.txt", "f-link"} {
		wantErr(t, call(t, p, "Edit", map[string]any{"file_path": path, "old_string": "keep", "new_string": "lost"}), "outside the allowed root")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "f.txt")); string(b) != "keep me" {
		t.Fatal("edited outside the root")
	}
}

// FuzzEdit checks applyEdit's contract on arbitrary input: refusals exactly when the rules say,
// otherwise the expected count and length, and the new text in place of the old.
func FuzzEdit(f *testing.F) {
	f.Add("a b a", "a", "c", false)
	f.Add("aaa", "aa", "b", true)
	f.Add("", "", "x", false)
	f.Add("xyz", "y", "y", false)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		got, n, err := applyEdit(content, old, new, all)
		count := 0
		if old != "" {
			count = strings.Count(content, old)
		}
		refuse := old == "" || old == new || count == 0 || (count > 1 && !all)
		if refuse != (err != nil) {
			t.Fatalf("refused=%v (err %v) for count %d", err != nil, err, count)
		}
		if err != nil {
			return
		}
		if n != count {
			t.Fatalf("n=%d, count=%d", n, count)
		}
		if len(got) != len(content)+n*(len(new)-len(old)) {
			t.Fatalf("length %d after %d replacements", len(got), n)
		}
		if !all {
			i := strings.Index(content, old)
			if got != content[:i]+new+content[i+len(old):] {
				t.Fatal("unique replacement not in place")
			}
		}
	})
}
