package runstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// markerFile is a file outside the run directory that a planted link points to.
func markerFile(t *testing.T) string {
	t.Helper()
	m := filepath.Join(t.TempDir(), "marker")
	if err := os.WriteFile(m, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	return m
}

func assertUntouched(t *testing.T, marker string) {
	t.Helper()
	if b, err := os.ReadFile(marker); err != nil || string(b) != "untouched" {
		t.Fatalf("the file outside the run directory changed: %q %v", b, err)
	}
}

// TestLinksInRunDirAreNotFollowed: a state.json or resume.lock planted as a link to a file
// outside is replaced or removed, never written through.
func TestLinksInRunDirAreNotFollowed(t *testing.T) {
	s := Store{Root: t.TempDir()}
	id := "20260101-000000-links"
	marker := markerFile(t)
	if err := os.MkdirAll(s.Dir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileName, lockName} {
		if err := os.Symlink(marker, filepath.Join(s.Dir(id), name)); err != nil {
			t.Fatal(err)
		}
	}
	unlock, err := s.Lock(id)
	if err != nil {
		t.Fatalf("lock with a planted link: %v", err)
	}
	if err := s.Save(rec(id, runrecord.Running, time.Unix(100, 0).UTC())); err != nil {
		t.Fatal(err)
	}
	unlock()
	assertUntouched(t, marker)
	if st, err := os.Lstat(filepath.Join(s.Dir(id), FileName)); err != nil || st.Mode()&os.ModeSymlink != 0 {
		t.Fatalf("state.json is still a link: %v %v", st, err)
	}
}

// TestLinkedRunDirRefused: a run directory that is itself a link to elsewhere is refused by
// Lock, with what to do.
func TestLinkedRunDirRefused(t *testing.T) {
	s := Store{Root: t.TempDir()}
	id := "20260101-000000-linked"
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(s.Dir(id)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, s.Dir(id)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Lock(id)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "remove the link") {
		t.Fatalf("a linked run directory was locked: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("files made outside through the link: %v", entries)
	}
}

// TestLoadRefusesLinkedState: a state.json that is a link is not read (it could be any file the
// user can read) and the error says to remove it.
func TestLoadRefusesLinkedState(t *testing.T) {
	s := Store{Root: t.TempDir()}
	other := Store{Root: t.TempDir()}
	good := rec("20260101-000000-target", runrecord.Failed, time.Unix(100, 0).UTC())
	if err := other.Save(good); err != nil {
		t.Fatal(err)
	}
	id := "20260101-000000-linkst"
	if err := os.MkdirAll(s.Dir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other.Dir(good.ID), FileName), filepath.Join(s.Dir(id), FileName)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load(id)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "remove the link") {
		t.Fatalf("a linked state.json was loaded: %v", err)
	}
}
