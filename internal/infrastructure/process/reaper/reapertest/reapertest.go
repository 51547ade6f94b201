// Package reapertest is the test side of package reaper: a shell fragment whose children leave
// their process group (one through setsid, one through a double fork and setsid, which no
// watcher of the starter's children can see), and the check that none
// of them outlived the start that ran it. The tests of every start that runs under a reaper
// (command steps, Bash calls, agent CLIs, plugins) share them, and .ci/sandbox-as-user runs
// every package whose tests import this one as an unprivileged user too.
package reapertest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Escapers are two processes a start leaves behind, each in a session of its own, the second
// re-parented before its start could see it: each writes its pid to a file of Dir
// (p1, p2), then touches a marker there (m1, m2) every tenth of a second for a minute at most,
// so that a marker touched after the start ended shows an escaper alive then, however long the
// start took.
type Escapers struct {
	Dir string
}

// New returns escapers that write in dir.
func New(dir string) Escapers { return Escapers{Dir: dir} }

// Script is the POSIX shell fragment that starts the two escapers and returns once both have
// written their pid. Like daemons, they leave the start's stdin, stdout and stderr, so that
// nothing but a reaper ends them (not a closed pipe's SIGPIPE).
func (e Escapers) Script() string {
	return fmt.Sprintf(`setsid sh -c 'echo $$ > %[1]s/p1; i=0; while [ $i -lt 600 ]; do sleep 0.1; touch %[1]s/m1; i=$((i+1)); done' </dev/null >/dev/null 2>&1 &
( setsid sh -c 'echo $$ > %[1]s/p2; i=0; while [ $i -lt 600 ]; do sleep 0.1; touch %[1]s/m2; i=$((i+1)); done' </dev/null >/dev/null 2>&1 & )
while [ ! -s %[1]s/p1 ] || [ ! -s %[1]s/p2 ]; do sleep 0.01; done
`, e.Dir)
}

// quiet is how long CheckGone watches the markers: many times an escaper's period, so that
// even a loaded machine would have scheduled a live one.
const quiet = 2 * time.Second

// CheckGone, called once the start has ended, fails t unless both escapers started and are
// gone, and no live process names Dir on its command line; survivors are killed. Then it
// watches the markers for a while and fails t if one is touched after the call, which confirms
// that they were dead and not merely unseen.
func (e Escapers) CheckGone(t testing.TB) {
	t.Helper()
	ended := time.Now()
	for _, f := range []string{"p1", "p2"} {
		b, _ := os.ReadFile(filepath.Join(e.Dir, f))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid <= 0 {
			t.Fatalf("escaper %s never started (no pid in %s)", f, filepath.Join(e.Dir, f))
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) && !zombie(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("escaper %s (pid %d) outlived its start", f, pid)
		}
	}
	if left := Naming(e.Dir); len(left) > 0 {
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		t.Errorf("live processes naming %s remain: %v", e.Dir, left)
	}
	time.Sleep(quiet)
	for _, m := range []string{"m1", "m2"} {
		// File times come from a coarse clock: a touch just before the end may look a few
		// milliseconds later.
		if fi, err := os.Stat(filepath.Join(e.Dir, m)); err == nil && fi.ModTime().After(ended.Add(100*time.Millisecond)) {
			t.Errorf("marker %s was touched %v after the start ended: an escaper lived on", m, fi.ModTime().Sub(ended))
		}
	}
}

// Naming lists the live processes (zombies are dead already) whose command line contains s.
func Naming(s string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !bytes.Contains(b, []byte(s)) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if pid > 0 && pid != os.Getpid() && !zombie(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}
