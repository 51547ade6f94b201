package pluginsock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirFitsASocketPath(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	if got := Dir(); got != filepath.Join(rt, "awf-plugins") {
		t.Errorf("Dir with XDG_RUNTIME_DIR = %s", got)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", "/tmp/"+strings.Repeat("x", 80))
	if got := Dir(); !strings.HasPrefix(got, "/tmp/awf-plugins-") {
		t.Errorf("Dir under a long TMPDIR = %s, want one in /tmp", got)
	}
}

func TestEnsureRefusesAnOpenDirectory(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	dir, err := Ensure()
	if err != nil || dir != filepath.Join(rt, "awf-plugins") {
		t.Fatalf("Ensure = %q, %v", dir, err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
	os.Chmod(dir, 0o777) // as another user's planted directory would be
	if dir, err := Ensure(); err == nil {
		t.Errorf("Ensure accepted a directory others may enter: %s", dir)
	}
}
