package privatefs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFilesArePrivateAndAtomic(t *testing.T) {
	parent := t.TempDir()
	var f Files
	dir, err := f.MakeDir(parent, "step-x-")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 || filepath.Dir(dir) != parent {
		t.Fatalf("dir %s: %v %v", dir, st, err)
	}
	path := filepath.Join(dir, "cfg.json")
	if err := f.WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	st, err = os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", st, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temp files left beside the file: %v", entries)
	}
	if err := f.WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
	// A rename that fails (the path is a directory) leaves no temp file behind.
	if err := os.MkdirAll(filepath.Join(dir, "occupied", "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(filepath.Join(dir, "occupied"), []byte("x")); err == nil {
		t.Fatal("write over a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("a failed write left files: %v", entries)
	}
	if err := f.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("dir not removed: %v", err)
	}
	if err := f.RemoveAll(dir); err != nil {
		t.Fatalf("removing a gone dir: %v", err)
	}
}
