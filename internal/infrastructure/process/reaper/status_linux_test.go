package reaper

import (
	"syscall"
	"testing"
)

// TestFinalStatusTakesAStatusStillWaiting: when the tree is gone before the command's status
// was received (both were ready and select took allGone), the status still waiting in cmdExit
// is the one the reaper leaves with; with none waiting, the one received stands.
func TestFinalStatusTakesAStatusStillWaiting(t *testing.T) {
	exit5 := syscall.WaitStatus(5 << 8)
	waiting := make(chan syscall.WaitStatus, 1)
	waiting <- exit5
	if got := finalStatus(0, waiting); got != exit5 || got.ExitStatus() != 5 {
		t.Fatalf("a waiting status was lost: got exit %d", got.ExitStatus())
	}
	if got := finalStatus(exit5, make(chan syscall.WaitStatus, 1)); got != exit5 {
		t.Fatalf("the received status was replaced: got exit %d", got.ExitStatus())
	}
}
