package runstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// TestJournalReplay: entries appended after a whole save are part of the record Load returns;
// a torn last line is ignored; a save empties the journal; entries a newer state.json already
// holds (a crash between the save and the journal's removal) are not applied twice.
func TestJournalReplay(t *testing.T) {
	s := Store{Root: t.TempDir()}
	id := "20260101-000000-journl"
	base := rec(id, runrecord.Running, time.Unix(100, 0).UTC())
	base.Seq = 1
	if err := s.Save(base); err != nil {
		t.Fatal(err)
	}
	j, err := s.OpenJournal(id)
	if err != nil {
		t.Fatal(err)
	}
	steps := []runrecord.Entry{
		{N: 2, Current: "b", Step: &runrecord.Step{Name: "a", Status: "success", Next: "b"}},
		{N: 3, Started: "loop[0]/x"},
		{N: 4, Step: &runrecord.Step{Name: "x", Within: "loop[0]", Status: "failure"}, Masked: []string{"s3cr3t"}},
	}
	for _, e := range steps {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	_ = j.Close()
	file := filepath.Join(s.Dir(id), JournalName)
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("journal %v %v, want a private file", st, err)
	}
	f, _ := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	_, _ = f.WriteString(`{"n":5,"current":"torn`) // a crash mid-write
	_ = f.Close()
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Current != "b" || len(got.Steps) != 3 || len(got.Active) != 0 || got.Seq != 4 || strings.Join(got.Masked, ",") != "s3cr3t" {
		t.Fatalf("replayed %+v", got)
	}
	// A crash after the compacting save but before the removal: the old entries stay beside.
	data, _ := os.ReadFile(file)
	if err := s.Save(got); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("journal after a save: %v", err)
	}
	_ = os.WriteFile(file, data, 0o600)
	again, err := s.Load(id)
	if err != nil || len(again.Steps) != 3 || again.Seq != 4 {
		t.Fatalf("entries applied twice: %d steps, seq %d, %v", len(again.Steps), again.Seq, err)
	}
}

// TestOldStatusWordsRead: a record written by an older release (succeeded, failed) reads in
// today's words.
func TestOldStatusWordsRead(t *testing.T) {
	s := Store{Root: t.TempDir()}
	for old, want := range map[string]string{"succeeded": runrecord.Succeeded, "failed": runrecord.Failed} {
		id := "20250101-000000-" + old
		dir := s.Dir(id)
		_ = os.MkdirAll(dir, 0o700)
		body := `{"version":1,"id":"` + id + `","workflow":"w","status":"` + old + `","pid":0,"started":"2025-01-01T00:00:00Z","updated":"2025-01-01T00:00:01Z","steps":[]}`
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(id)
		if err != nil || got.Status != want {
			t.Fatalf("%s: %q %v, want %q", old, got.Status, err, want)
		}
	}
}

// TestJournalLinkRefused: a journal planted as a symbolic link is neither written through nor
// read.
func TestJournalLinkRefused(t *testing.T) {
	s := Store{Root: t.TempDir()}
	id := "20260101-000000-linked"
	if err := s.Save(rec(id, runrecord.Running, time.Unix(100, 0).UTC())); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	_ = os.WriteFile(target, []byte("keep\n"), 0o600)
	if err := os.Symlink(target, filepath.Join(s.Dir(id), JournalName)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenJournal(id); err == nil {
		t.Fatal("a journal link was opened for writing")
	}
	if _, err := s.Load(id); err == nil {
		t.Fatal("a journal link was read")
	}
	if data, _ := os.ReadFile(target); string(data) != "keep\n" {
		t.Fatalf("the link's target changed: %q", data)
	}
}
