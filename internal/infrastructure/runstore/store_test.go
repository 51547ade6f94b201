package runstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

func rec(id, status string, started time.Time) runrecord.Record {
	return runrecord.Record{Version: runrecord.Version, ID: id, Workflow: "w", Status: status, Started: started, PID: os.Getpid(),
		Inputs: map[string]any{"who": "x"}, Steps: []runrecord.Step{{Name: "a", Type: "command", Status: "success", Output: "hi", Next: "b"}}}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	s := Store{Root: t.TempDir()}
	want := rec("20260101-000000-aaaaaa", runrecord.Running, time.Unix(100, 0).UTC())
	if err := s.Save(want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != want.ID || got.Status != want.Status || got.Inputs["who"] != "x" || len(got.Steps) != 1 || got.Steps[0].Output != "hi" || !got.Started.Equal(want.Started) {
		t.Fatalf("round trip: got %+v", got)
	}
	info, err := os.Stat(filepath.Join(s.Dir(want.ID), FileName))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state.json mode %v, err %v; want 0600", info.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(s.Dir(want.ID))
	if len(entries) != 1 {
		t.Fatalf("run dir holds %d entries, want state.json alone (no temp file left)", len(entries))
	}
}

// TestSaveFailureLeavesPreviousRecord: a write that cannot complete leaves the old record whole
// and no temp file behind.
func TestSaveFailureLeavesPreviousRecord(t *testing.T) {
	s := Store{Root: t.TempDir()}
	old := rec("r1", runrecord.Running, time.Unix(1, 0))
	if err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	bad := old
	bad.Status = runrecord.Succeeded
	bad.Inputs = map[string]any{"f": func() {}} // not encodable: Save fails before writing
	if err := s.Save(bad); fault.CodeOf(err) != fault.SystemFSRunState {
		t.Fatalf("err = %v, want %s", err, fault.SystemFSRunState)
	}
	got, err := s.Load("r1")
	if err != nil || got.Status != runrecord.Running {
		t.Fatalf("after a failed save: %+v, %v", got, err)
	}
	if err := os.Chmod(s.Dir("r1"), 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(s.Dir("r1"), 0o700) })
	if os.Geteuid() != 0 { // root ignores directory permissions
		if err := s.Save(old); err == nil {
			t.Fatal("save into a read-only directory succeeded")
		}
	}
	entries, _ := os.ReadDir(s.Dir("r1"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temp file %s left behind", e.Name())
		}
	}
}

func TestLoadErrors(t *testing.T) {
	s := Store{Root: t.TempDir()}
	if err := s.Save(rec("20260101-000000-abcdef", runrecord.Failed, time.Unix(1, 0))); err != nil {
		t.Fatal(err)
	}
	write := func(id, body string) {
		if err := os.MkdirAll(s.Dir(id), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir(id), FileName), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("trunc", `{"version": 1, "id": "trunc", "sta`)
	write("newer", `{"version": 99, "id": "newer", "status": "running"}`)
	write("empty", `{}`)
	tests := []struct{ id, code, hint string }{
		{"20260101-000000-abcdeg", fault.UserRunNotFound, "20260101-000000-abcdef"},
		{"20260101", fault.UserRunNotFound, "20260101-000000-abcdef"},
		{"../x", fault.UserRunNotFound, ""},
		{"zzzzzzzzzzzzzzzzzzzz", fault.UserRunNotFound, "nearest runs: "},
		{"", fault.UserRunNotFound, ""},
		{"trunc", fault.UserRunCorrupt, "left as it was"},
		{"newer", fault.UserRunCorrupt, "newer awf"},
		{"empty", fault.UserRunCorrupt, ""},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			_, err := s.Load(tt.id)
			if fault.CodeOf(err) != tt.code {
				t.Fatalf("err = %v, want %s", err, tt.code)
			}
			var fe *fault.Error
			if tt.hint != "" && (!asFault(err, &fe) || !strings.Contains(fe.Hint, tt.hint)) {
				t.Fatalf("hint of %v does not mention %q", err, tt.hint)
			}
		})
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir("trunc"), FileName))
	if string(data) != `{"version": 1, "id": "trunc", "sta` {
		t.Fatal("a corrupt state file was changed by reading it")
	}
}

func TestListNewestFirstSkipsUnreadable(t *testing.T) {
	s := Store{Root: t.TempDir(), ActivityFile: "activity.jsonl"}
	for i, id := range []string{"a", "c", "b"} {
		if err := s.Save(rec(id, runrecord.Succeeded, time.Unix(int64(i), 0))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(s.Dir("old-run-without-state"), 0o700); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	if strings.Join(ids, ",") != "b,c,a" {
		t.Fatalf("ids %v, want newest first b,c,a", ids)
	}
	if err := os.WriteFile(filepath.Join(s.Dir("a"), "activity.jsonl"), []byte("{}\n{}\n\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := s.ToolCalls("a"); n != 3 {
		t.Fatalf("tool calls %d, want 3", n)
	}
	if n := s.ToolCalls("b"); n != 0 {
		t.Fatalf("tool calls of a run without activity %d, want 0", n)
	}
}

func TestAliveAndCrashed(t *testing.T) {
	s := Store{}
	dead := deadPID(t)
	if s.Alive(dead) || s.Alive(0) || s.Alive(-1) {
		t.Fatal("a dead or invalid pid is alive")
	}
	if !s.Alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	r := rec("x", runrecord.Running, time.Unix(1, 0))
	r.PID = dead
	if got := r.Effective(s.Alive); got != runrecord.Crashed {
		t.Fatalf("running record of a dead pid is %s, want crashed", got)
	}
	r.PID = os.Getpid()
	if got := r.Effective(s.Alive); got != runrecord.Running {
		t.Fatalf("running record of a live pid is %s", got)
	}
}

func TestLock(t *testing.T) {
	s := Store{Root: t.TempDir()}
	if err := s.Save(rec("r", runrecord.Interrupted, time.Unix(1, 0))); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock("r")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock("r"); fault.CodeOf(err) != fault.UserRunLocked {
		t.Fatalf("second lock: %v, want %s", err, fault.UserRunLocked)
	}
	unlock()
	// A lock left by a dead process is taken over.
	if err := os.WriteFile(filepath.Join(s.Dir("r"), lockName), []byte(itoa(deadPID(t))), 0o600); err != nil {
		t.Fatal(err)
	}
	unlock, err = s.Lock("r")
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	unlock()
}

// TestSaveRenameFailureRemovesTemp: when the rename fails (state.json is a directory here), the
// temp file is removed and the error is coded.
func TestSaveRenameFailureRemovesTemp(t *testing.T) {
	s := Store{Root: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(s.Dir("r"), FileName, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(rec("r", runrecord.Running, time.Unix(1, 0))); fault.CodeOf(err) != fault.SystemFSRunState {
		t.Fatalf("err = %v", err)
	}
	entries, _ := os.ReadDir(s.Dir("r"))
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Fatalf("entries %v: a temp file was left behind", entries)
	}
}

func TestNotFoundWithoutRuns(t *testing.T) {
	_, err := Store{Root: t.TempDir()}.Load("x")
	var fe *fault.Error
	if !asFault(err, &fe) || fe.Code != fault.UserRunNotFound || !strings.Contains(fe.Hint, "no runs yet") {
		t.Fatalf("err %v", err)
	}
}

func TestOversizedRecordRefused(t *testing.T) {
	s := Store{Root: t.TempDir()}
	r := rec("r", runrecord.Running, time.Unix(1, 0))
	if err := s.Save(r); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(s.Dir("r"), FileName))
	if err != nil {
		t.Fatal(err)
	}
	old := maxRecord
	t.Cleanup(func() { maxRecord = old })
	maxRecord = info.Size()
	if _, err := s.Load("r"); err != nil {
		t.Fatalf("a record of exactly the limit: %v", err)
	}
	maxRecord = info.Size() - 1
	if _, err := s.Load("r"); fault.CodeOf(err) != fault.UserRunCorrupt {
		t.Fatalf("an oversized record: %v", err)
	}
}
