package cli

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// procStat is what /proc/<pid>/stat says about one process.
type procStat struct {
	state byte
	ppid  int
	pgid  int
	start uint64 // start time in clock ticks since boot: tells a pid from its reuse
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp … starttime …". comm may hold
// spaces and parentheses, so fields are counted from the last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgid: pgid, start: start}, true
}

func (s procStat) live() bool { return s.state != 'Z' && s.state != 'X' }

// allProcs reads every process's stat; nil when /proc cannot be read.
func allProcs() map[int]procStat {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]procStat, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// family is a CLI's process group plus the groups its descendants moved into. Codex, for one,
// starts its MCP server in a process group of its own (verified with codex-cli 0.169.0), so
// signalling the CLI's group alone would leave the proxy, and whatever it runs, behind. The
// family is learnt by watching /proc while the CLI runs: once the CLI is gone its children
// are re-parented and the link is lost.
type family struct {
	root int // the CLI's pid, which is also its process group id
	self int // awf's own process group: never signalled

	mu   sync.Mutex
	seen map[int]procStat // descendants outside the root group, by pid
}

func newFamily(root int) *family {
	return &family{root: root, self: syscall.Getpgrp(), seen: map[int]procStat{}}
}

// scan records the CLI's current descendants that left its group.
func (f *family) scan() {
	procs := allProcs()
	if procs == nil {
		return
	}
	children := map[int][]int{}
	for pid, st := range procs {
		children[st.ppid] = append(children[st.ppid], pid)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	queue := append([]int(nil), children[f.root]...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		st := procs[pid]
		if st.pgid != f.root && st.pgid != f.self && st.live() {
			f.seen[pid] = st
		}
		queue = append(queue, children[pid]...)
	}
}

// watch scans until stop is closed: often at first (a CLI spawns its MCP server at start),
// then every half second.
func (f *family) watch(stop <-chan struct{}) {
	delay := 20 * time.Millisecond
	for {
		select {
		case <-stop:
			return
		case <-time.After(delay):
		}
		f.scan()
		delay = min(delay*3, 500*time.Millisecond)
	}
}

// groups returns the process groups to signal: the CLI's, and the current group of every
// recorded descendant that is still the same live process (same start time: a reused pid
// is not ours).
func (f *family) groups() map[int]bool {
	out := map[int]bool{f.root: true}
	f.mu.Lock()
	defer f.mu.Unlock()
	for pid, was := range f.seen {
		now, ok := readStat(pid)
		if !ok || now.start != was.start || !now.live() {
			delete(f.seen, pid)
			continue
		}
		if now.pgid != f.self && now.pgid > 0 {
			out[now.pgid] = true
		}
	}
	return out
}

// signal sends sig to every group of the family.
func (f *family) signal(sig syscall.Signal) {
	for g := range f.groups() {
		_ = process.KillGroup(g, sig)
	}
}

// alive reports whether any live process is left in the family's groups. Zombies do not
// count: an orphan that exited stays one until its new parent reaps it, and in containers
// whose init does not reap, that is forever.
func (f *family) alive() bool {
	groups := f.groups()
	procs := allProcs()
	if procs == nil {
		return syscall.Kill(-f.root, 0) == nil
	}
	for _, st := range procs {
		if groups[st.pgid] && st.live() {
			return true
		}
	}
	return false
}

// waitGone polls until the family has no live member, d has passed or cut is closed, and
// says whether the family is gone.
func (f *family) waitGone(d time.Duration, cut <-chan struct{}) bool {
	deadline := time.Now().Add(d)
	delay := 5 * time.Millisecond
	for {
		if !f.alive() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		select {
		case <-cut:
			return false
		case <-time.After(min(delay, time.Until(deadline))):
		}
		delay = min(delay*2, 100*time.Millisecond)
	}
}

// settle empties the family once the CLI has exited: members get linger to leave on their own
// (an MCP server exits on stdin EOF and flushes its traces), cut short by cut (Ctrl+C), then
// SIGTERM and grace, then SIGKILL.
func (f *family) settle(linger, grace time.Duration, cut <-chan struct{}) {
	if f.waitGone(linger, cut) {
		return
	}
	f.stop(grace)
}

// stop sends SIGTERM, waits up to grace for the family to leave, then SIGKILL.
func (f *family) stop(grace time.Duration) {
	f.signal(syscall.SIGTERM)
	if f.waitGone(grace, nil) {
		return
	}
	f.signal(syscall.SIGKILL)
	f.waitGone(time.Second, nil)
}
