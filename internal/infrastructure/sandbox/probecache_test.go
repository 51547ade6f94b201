//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// probeOnDisk runs one uncached-in-memory probe through the disk cache in dir.
func probeOnDisk(t *testing.T, dir, self string) Status {
	t.Helper()
	probeMu.Lock()
	defer probeMu.Unlock()
	old := probeDiskDir
	probeDiskDir = dir
	defer func() { probeDiskDir = old }()
	return probeThroughDisk(self)
}

func TestProbeCacheKeepsOnlyPositiveAnswers(t *testing.T) {
	if ABI() < 1 {
		t.Skip("no Landlock: the disk cache is never consulted")
	}
	dir, bin := t.TempDir(), filepath.Join(t.TempDir(), "false")
	copyBinary(t, "/bin/false", bin)
	if st := probeOnDisk(t, dir, bin); st.Enforced {
		t.Fatalf("a helper that exits 1 was judged enforced: %+v", st)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a negative answer was cached: %v", ents)
	}
	// A positive mark for this very binary is believed without a trial run (which would fail).
	key, ok := probeKey(bin, ABI())
	if !ok {
		t.Fatal("no key for an existing binary")
	}
	if err := writeMark(filepath.Join(dir, "sandbox-probe-"+key)); err != nil {
		t.Fatal(err)
	}
	if st := probeOnDisk(t, dir, bin); !st.Enforced || st.ABI != ABI() {
		t.Fatalf("the cached answer was not used: %+v", st)
	}
	// Another build of the binary (new modification time) has another key: probed again.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	if st := probeOnDisk(t, dir, bin); st.Enforced {
		t.Fatalf("a stale mark was used for a changed binary: %+v", st)
	}
	// Without a cache directory nothing is read or written.
	if st := probeOnDisk(t, "", bin); st.Enforced {
		t.Fatalf("probe without a cache dir: %+v", st)
	}
}

func TestProbeCacheWritesTheMarkOfARealHelper(t *testing.T) {
	requireSandbox(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if st := probeOnDisk(t, dir, self); !st.Enforced {
		t.Fatalf("probe through the disk: %+v", st)
	}
	key, _ := probeKey(self, ABI())
	b, err := os.ReadFile(filepath.Join(dir, "sandbox-probe-"+key))
	if err != nil || string(b) != enforcedMark {
		t.Fatalf("mark: %q %v", b, err)
	}
	if _, ok := probeKey(filepath.Join(dir, "missing"), ABI()); ok {
		t.Fatal("a key for a missing binary")
	}
}
