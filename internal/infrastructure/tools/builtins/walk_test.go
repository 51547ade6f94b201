package builtins

import (
	"runtime"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// TestSearchWorkersOutlastANarrowedProcess: a search sized by GOMAXPROCS at the instant it
// starts ran with one worker under mcp-serve's Pacer, which narrows to one P between calls and
// widens only once a call has run 2 ms.
func TestSearchWorkersOutlastANarrowedProcess(t *testing.T) {
	if startProcs < 2 {
		testkit.Skipf(t, "the process started with GOMAXPROCS %d: nothing to narrow", startProcs)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if got := searchWorkers(); got != startProcs {
		t.Fatalf("searchWorkers on one P = %d, want the %d the process started with", got, startProcs)
	}
	runtime.GOMAXPROCS(startProcs + 2)
	if got := searchWorkers(); got != startProcs+2 {
		t.Fatalf("searchWorkers on %d Ps = %d", startProcs+2, got)
	}
}
