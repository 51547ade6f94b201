package rootfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestConfinerResolve(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	mustWrite(t, filepath.Join(root, "a", "f.txt"), "x")
	mustWrite(t, filepath.Join(outside, "secret"), "s")
	links := map[string]string{
		"esc-file": filepath.Join(outside, "secret"),
		"esc-dir":  outside,
		"in-dir":   filepath.Join(root, "a"),
		"dangling": filepath.Join(outside, "nothing-yet"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	c := &Root{root: root}
	tests := []struct {
		in      string
		want    string // "" when outside
		wantErr bool
	}{
		{"a/f.txt", filepath.Join(root, "a/f.txt"), false},
		{filepath.Join(root, "a/f.txt"), filepath.Join(root, "a/f.txt"), false},
		{".", root, false},
		{"new/dir/file", filepath.Join(root, "new/dir/file"), false},
		{"in-dir/f.txt", filepath.Join(root, "a/f.txt"), false},
		{"in-dir/../a/f.txt", filepath.Join(root, "a/f.txt"), false},
		{"a/f.txt/below", filepath.Join(root, "a/f.txt/below"), false},
		{"dangling", filepath.Join(root, "dangling"), false}, // replaced in place, never followed
		{"../x", "", true},
		{"/etc/passwd", "", true},
		{"esc-file", "", true},
		{"esc-dir/secret", "", true},
		{"esc-dir/new/file", "", true},
		{"", "", true},
		{"a\x00b", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := c.Resolve(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("resolve(%q) = %q, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	_, err := c.Resolve("esc-file")
	var oe *OutsideError
	if !errors.As(err, &oe) {
		t.Fatalf("escape must be an OutsideError, got %T", err)
	}
	if want := "path esc-file is outside the allowed root " + root; err.Error()[:len(want)] != want {
		t.Fatalf("message: %s", err)
	}
}

func TestConfinerSlashRoot(t *testing.T) {
	c := &Root{root: "/"}
	if !c.Contains("/etc") || !c.Contains("/") {
		t.Fatal("root / contains everything")
	}
}

// mustWrite writes content to path, creating its directories.
func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
