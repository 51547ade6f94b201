package builtins

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

func fileMode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// noTempLeft fails when a Write/Edit temporary file remains in dir.
func noTempLeft(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".awf-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestWrite(t *testing.T) {
	p, root := newTestProvider(t)
	old := syscall.Umask(0o077) // the new-file mode must not depend on the umask
	defer syscall.Umask(old)

	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "deep/new/dir/f.txt", "content": "hello"}), "Created", "(5 bytes)")
	got, _ := os.ReadFile(filepath.Join(root, "deep/new/dir/f.txt"))
	if string(got) != "hello" {
		t.Fatalf("content %q", got)
	}
	if m := fileMode(t, filepath.Join(root, "deep/new/dir/f.txt")); m.Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", m)
	}
	// Permission bits are kept; setuid and setgid are cleared (docs/decisions/0012-kernel-sandbox.md), sticky is kept.
	for _, mode := range []fs.FileMode{0o640, 0o755, 0o600, 0o4755, 0o2755, 0o6755 | fs.ModeSticky} {
		path := filepath.Join(root, "m.txt")
		mustWrite(t, path, "old")
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		wantOK(t, call(t, p, "Write", map[string]any{"file_path": path, "content": "new"}), "Updated")
		want := mode & (fs.ModePerm | fs.ModeSticky)
		if m := fileMode(t, path); m&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != want {
			t.Fatalf("mode %v became %v", mode, m)
		}
	}
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "empty.txt", "content": ""}), "(0 bytes)")
	wantErr(t, call(t, p, "Write", map[string]any{"file_path": "deep", "content": "x"}), "is a directory")
	noTempLeft(t, root)
	noTempLeft(t, filepath.Join(root, "deep/new/dir"))
}

func TestWriteThroughSymlinks(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "outdir"))
	os.Symlink(filepath.Join(outside, "victim.txt"), filepath.Join(root, "victim-link"))
	mustWrite(t, filepath.Join(outside, "victim.txt"), "untouched")
	for _, path := range []string{"outdir/evil.txt", "outdir/sub/evil.txt", "victim-link", filepath.Join(outside, "evil.txt")} {
		wantErr(t, call(t, p, "Write", map[string]any{"file_path": path, "content": "pwned"}), "outside the allowed root")
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Fatalf("something was written outside the root: %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "victim.txt")); string(b) != "untouched" {
		t.Fatal("file outside the root was modified")
	}
	// A link inside the root is written through: the target changes, the link stays.
	mustWrite(t, filepath.Join(root, "real.txt"), "a")
	os.Chmod(filepath.Join(root, "real.txt"), 0o600)
	os.Symlink("real.txt", filepath.Join(root, "alias.txt"))
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "alias.txt", "content": "b"}))
	if b, _ := os.ReadFile(filepath.Join(root, "real.txt")); string(b) != "b" {
		t.Fatalf("target content %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(root, "alias.txt")); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	if m := fileMode(t, filepath.Join(root, "real.txt")); m.Perm() != 0o600 {
		t.Fatalf("mode through link %v", m)
	}
}

func TestWriteRefusesSpecialFiles(t *testing.T) {
	p, root := newTestProvider(t)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		testkit.Skip(t, err.Error())
	}
	wantErr(t, call(t, p, "Write", map[string]any{"file_path": "fifo", "content": "x"}), "named pipe")
}
