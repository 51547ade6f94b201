package builtins

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// globTree builds a small project with nested directories, a .git directory and symlinks.
func globTree(t *testing.T, root string) {
	t.Helper()
	for _, f := range []string{"main.go", "a/a.go", "a/b/b.go", "a/b/c/c.go", "a/readme.md", ".git/objects/x.go", "vendor/v.go", ".hidden/h.go"} {
		mustWrite(t, filepath.Join(root, f), "package x\n")
	}
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "loop"))           // symlinked dir: not followed
	os.Symlink(filepath.Join(root, "main.go"), filepath.Join(root, "alias.go")) // symlinked file: listed
}

func globLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.HasPrefix(l, "[") {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestGlob(t *testing.T) {
	p, root := newTestProvider(t)
	globTree(t, root)
	abs := func(names ...string) string {
		for i, n := range names {
			names[i] = filepath.Join(root, n)
		}
		return strings.Join(names, ",")
	}
	tests := []struct {
		name string
		args map[string]any
		want string // comma-joined, sorted by name
	}{
		{"doublestar", map[string]any{"pattern": "**/*.go"}, abs(".hidden/h.go", "a/a.go", "a/b/b.go", "a/b/c/c.go", "alias.go", "main.go", "vendor/v.go")},
		{"star is one level", map[string]any{"pattern": "*.go"}, abs("alias.go", "main.go")},
		{"star in the middle", map[string]any{"pattern": "a/*/*.go"}, abs("a/b/b.go")},
		{"doublestar in the middle", map[string]any{"pattern": "a/**/c.go"}, abs("a/b/c/c.go")},
		{"braces", map[string]any{"pattern": "a/*.{go,md}"}, abs("a/a.go", "a/readme.md")},
		{"with path", map[string]any{"pattern": "**/*.go", "path": "a/b"}, abs("a/b/b.go", "a/b/c/c.go")},
		{"absolute pattern", map[string]any{"pattern": filepath.Join(root, "a", "**", "b.go")}, abs("a/b/b.go")},
		{"dot slash", map[string]any{"pattern": "./a/*.go"}, abs("a/a.go")},
		{"no match", map[string]any{"pattern": "**/*.rs"}, ""},
		{"missing base", map[string]any{"pattern": "nope/**/*.go"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := wantOK(t, call(t, p, "Glob", tt.args))
			if tt.want == "" {
				if out != "No files found" {
					t.Fatalf("got %q", out)
				}
				return
			}
			lines := globLines(out)
			sort.Strings(lines) // order is tested in TestGlobSortsNewestFirstAndCaps
			if got := strings.Join(lines, ","); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestGlobSortsNewestFirstAndCaps(t *testing.T) {
	p, root := newTestProvider(t)
	base := time.Now().Add(-time.Hour)
	for i := 0; i < globMaxResults+20; i++ {
		path := filepath.Join(root, "d", fmt.Sprintf("f%03d.txt", i))
		mustWrite(t, path, "x")
		ts := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(path, ts, ts)
	}
	out := wantOK(t, call(t, p, "Glob", map[string]any{"pattern": "**/*.txt"}), "[120 files matched; showing the 100 most recently modified")
	lines := globLines(out)
	if len(lines) != globMaxResults {
		t.Fatalf("%d lines", len(lines))
	}
	if lines[0] != filepath.Join(root, "d", "f119.txt") || lines[99] != filepath.Join(root, "d", "f020.txt") {
		t.Fatalf("order: first %s, last %s", lines[0], lines[99])
	}
}

func TestGlobConfinement(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret.go"), "x")
	os.Symlink(outside, filepath.Join(root, "out"))
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": "*.go", "path": "out"}), "outside the allowed root")
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": "out/*.go"}), "outside the allowed root")
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": filepath.Join(outside, "*.go")}), "outside the allowed root")
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": "../**/*.go"}), "outside the allowed root")
	out := wantOK(t, call(t, p, "Glob", map[string]any{"pattern": "**/*.go"}))
	if strings.Contains(out, "secret") {
		t.Fatalf("walk followed a symlink out of the root: %s", out)
	}
	mustWrite(t, filepath.Join(root, "file.txt"), "x")
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": "*", "path": "file.txt"}), "not a directory")
	wantErr(t, call(t, p, "Glob", map[string]any{"pattern": "[a"}), "not a valid glob")
}
