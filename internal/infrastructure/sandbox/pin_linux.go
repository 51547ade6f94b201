package sandbox

import (
	"fmt"
	"os"
	"sync"
)

// The helper runs before any confinement, so the file it is started from must be the one awf
// meant, not whatever lies at its path by the time of a call: a step whose root holds awf's
// binaries (awf's own repository after `make build`) could rename their directory and plant
// another program under the old name. So a helper is started from a descriptor, opened when the
// process started for its own executable, else when the path was first named (Probe, which a
// Bash tool calls before its first call), and never by its path again.
var (
	pinMu   sync.Mutex
	pins    = map[string]*os.File{}
	ownExe  *os.File // /proc/self/exe, opened at start-up
	ownPath string   // what os.Executable said then
)

func init() {
	ownPath, _ = os.Executable()
	ownExe, _ = os.Open("/proc/self/exe")
}

// pinned is the descriptor of the helper binary self, opened once per process.
func pinned(self string) (*os.File, error) {
	pinMu.Lock()
	defer pinMu.Unlock()
	if f, ok := pins[self]; ok {
		return f, nil
	}
	f := ownExe
	if self != ownPath || f == nil {
		var err error
		if f, err = os.Open(self); err != nil {
			return nil, fmt.Errorf("cannot open the sandbox helper %s: %v", self, err)
		}
	}
	pins[self] = f
	return f, nil
}

// exeFD is the descriptor number the helper's binary has in the spare: StartSpare passes it
// after the request pipe (descriptor 3) and execs /proc/self/fd/4; the helper closes it.
const exeFD = 4
