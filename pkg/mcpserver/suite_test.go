package mcpserver

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
)

func TestMain(m *testing.M) {
	// The direct path's check runs in the background of a server's start; done first, every
	// server of the tests takes the calls it should from its first one.
	if err := direct.Check(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if testChild != nil {
		os.Exit(testChild())
	}
	os.Exit(runBothWays(m))
}

// testChild, when set, is what the test binary runs instead of the tests: it was started by a
// test as a child process.
var testChild func() int

// suiteAccel are the accelerators of the servers the tests make: none on the suite's first run,
// every one on its second (runBothWays).
var suiteAccel Accelerators

// runBothWays runs every test of the package twice: on the SDK's own path, then with every
// accelerator on, so each accelerator is held to the whole suite, the golden transcripts
// included. A fuzzing or benchmarking run goes once, with every accelerator on.
func runBothWays(m *testing.M) int {
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" || benchmarking() {
		suiteAccel = AccelAll
		return m.Run()
	}
	if code := m.Run(); code != 0 {
		return code
	}
	suiteAccel = AccelAll
	fmt.Fprintln(os.Stderr, "mcpserver: the suite again, with every accelerator on")
	return m.Run()
}

func benchmarking() bool {
	flag.Parse()
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

// newSrv is New with the suite's accelerators when opts names none.
func newSrv(opts Options) *Server {
	if opts.Accelerators == 0 {
		opts.Accelerators = suiteAccel
	}
	return New(opts)
}

// directWant is n when the suite runs the direct path, else 0: how many calls it should take.
func directWant(n int64) int64 {
	if suiteAccel&AccelDirect == 0 {
		return 0
	}
	return n
}

// TestSuiteAccelerators: a server of the suite runs the direct path exactly when it should.
func TestSuiteAccelerators(t *testing.T) {
	if got := newSrv(Options{}).direct != nil; got != (suiteAccel&AccelDirect != 0) {
		t.Fatalf("direct path %v with accelerators %b", got, suiteAccel)
	}
	if New(Options{}).direct != nil || New(Options{Accelerators: AccelAll}).direct == nil {
		t.Fatal("the zero Options must serve through the SDK alone, AccelAll through the direct path")
	}
}
