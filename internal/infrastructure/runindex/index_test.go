package runindex

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

func save(t *testing.T, s *Store, id, status string, at time.Time) {
	t.Helper()
	rec := runrecord.Record{Version: runrecord.Version, ID: id, Workflow: "w", Status: status, PID: os.Getpid(), Started: at, Updated: at,
		Inputs: map[string]any{"api_key": "k-123456"}, Steps: []runrecord.Step{{Name: "a", Status: "success"}}}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
}

func ids(t *testing.T, s *Store) []string {
	t.Helper()
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.ID+":"+r.Status)
	}
	return out
}

func equal(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// The index follows the run directories: a new run, a changed record, a removed run and a
// deleted or planted index are all seen by the next list, which agrees with the file store's.
func TestIndexStaysInStep(t *testing.T) {
	root := t.TempDir()
	s := New(root, "activity.jsonl")
	t0 := time.Unix(1000, 0)
	save(t, s, "a", runrecord.Running, t0)
	save(t, s, "b", runrecord.Failed, t0.Add(time.Second))
	equal(t, ids(t, s), "b:"+runrecord.Failed, "a:"+runrecord.Running)
	index := filepath.Join(root, ".awf", "runs", FileName)
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	save(t, s, "a", runrecord.Succeeded, t0)
	save(t, s, "c", runrecord.Interrupted, t0.Add(2*time.Second))
	equal(t, ids(t, s), "c:"+runrecord.Interrupted, "b:"+runrecord.Failed, "a:"+runrecord.Succeeded)
	if err := os.RemoveAll(s.Dir("b")); err != nil {
		t.Fatal(err)
	}
	equal(t, ids(t, s), "c:"+runrecord.Interrupted, "a:"+runrecord.Succeeded)
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	equal(t, ids(t, s), "c:"+runrecord.Interrupted, "a:"+runrecord.Succeeded) // rebuilt
	planted := encode(header{}, []entry{{ID: "zz", Status: runrecord.Succeeded, State: stamp{Size: 1, MTime: 1}}})
	if err := os.WriteFile(index, planted, 0o600); err != nil {
		t.Fatal(err)
	}
	equal(t, ids(t, s), "c:"+runrecord.Interrupted, "a:"+runrecord.Succeeded) // an entry without its directory is dropped
	if err := os.WriteFile(index, []byte(`{"version":2,"runs":{"zz":{"id":"zz","st":"success","sz":1,"mt":1}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	equal(t, ids(t, s), "c:"+runrecord.Interrupted, "a:"+runrecord.Succeeded) // an index of an older format is rebuilt
	files, _ := runstore.Store{Root: root}.List()
	if len(files) != 2 || files[0].ID != "c" {
		t.Errorf("the file store disagrees: %v", files)
	}
	recs, _ := s.List()
	if len(recs[1].Masked) != 1 || recs[1].Masked[0] != "k-123456" || recs[1].Steps != nil {
		t.Errorf("entry of a: masked %v, steps %v", recs[1].Masked, recs[1].Steps)
	}
}

// A running run's tool calls are counted again when its activity file grows.
func TestIndexCountsCalls(t *testing.T) {
	root := t.TempDir()
	s := New(root, "activity.jsonl")
	save(t, s, "r", runrecord.Running, time.Unix(5, 0))
	act := filepath.Join(s.Dir("r"), "activity.jsonl")
	if err := os.WriteFile(act, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ids(t, s)
	if n := s.ToolCalls("r"); n != 1 {
		t.Fatalf("calls %d, want 1", n)
	}
	if err := os.WriteFile(act, []byte("{}\n{}\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ids(t, (New(root, "activity.jsonl")))
	s2 := New(root, "activity.jsonl")
	ids(t, s2)
	if n := s2.ToolCalls("r"); n != 3 {
		t.Fatalf("calls %d, want 3", n)
	}
}

// A symbolic link in the index's place is not followed: the list is built from the runs.
func TestIndexLinkIgnored(t *testing.T) {
	root := t.TempDir()
	s := New(root, "")
	save(t, s, "a", runrecord.Failed, time.Unix(5, 0))
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(target, []byte(`{"version":2,"runs":{"a":{"id":"a","st":"success"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, ".awf", "runs", FileName)); err != nil {
		t.Fatal(err)
	}
	equal(t, ids(t, s), "a:"+runrecord.Failed)
	if data, _ := os.ReadFile(target); string(data) != `{"version":2,"runs":{"a":{"id":"a","st":"success"}}}` {
		t.Errorf("the link's target was written: %s", data)
	}
}
