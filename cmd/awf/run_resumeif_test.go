package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// TestPodRunsOwnPID: in a new pod awf has the pid the killed awf had. The plain store calls that
// pid alive (so a resume would be refused); podRuns does not, and takes over its stale lock.
func TestPodRunsOwnPID(t *testing.T) {
	root := t.TempDir()
	st := runstore.Store{Root: root}
	self := os.Getpid()
	if err := os.MkdirAll(st.Dir("r1"), 0o700); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(st.Dir("r1"), resumeLockName)
	if err := os.WriteFile(lock, []byte(strconv.Itoa(self)), 0o600); err != nil {
		t.Fatal(err)
	}
	if !st.Alive(self) {
		t.Fatal("the plain store should call this pid alive")
	}
	if _, err := st.Lock("r1"); fault.CodeOf(err) != fault.UserRunLocked {
		t.Fatalf("the plain store should refuse a lock naming a live pid: %v", err)
	}
	p := podRuns{Store: st, self: self}
	if p.Alive(self) || !p.Alive(os.Getppid()) {
		t.Fatal("podRuns: own pid must be gone, the parent alive")
	}
	unlock, err := p.Lock("r1")
	if err != nil {
		t.Fatalf("podRuns should take over a lock naming its own pid: %v", err)
	}
	unlock()
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("lock left behind: %v", err)
	}
}
