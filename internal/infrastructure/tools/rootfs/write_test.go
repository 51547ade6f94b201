package rootfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAtomicWriteCleansUpOnFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Renaming a file over a non-empty directory fails after the temp file was written.
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := AtomicWrite(r, "target", target, []byte("data"), nil); err == nil {
		t.Fatal("rename over a directory must fail")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".awf-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
	if err := AtomicWrite(r, "missing/f", target, []byte("x"), nil); err == nil {
		t.Fatal("a missing directory must fail")
	}
}
