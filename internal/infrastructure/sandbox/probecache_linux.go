package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// probeDiskDir is where Probe keeps its positive answers across processes ("" = nowhere). It
// is set once by `awf mcp-serve`, which is spawned for every agent step and would otherwise pay
// a whole trial run of the helper (a process in fresh namespaces, about 10 ms) before it can
// list its tools.
var probeDiskDir string

// UseProbeCache makes Probe remember, in dir, that the sandbox could be enforced, so the next
// process on the same kernel settings, user and awf binary skips the trial run. Only positive
// answers are kept: a stale one cannot let Bash run unconfined, because a call whose policy
// the helper cannot apply fails. A negative answer is never kept, so a machine that gains the
// kernel features is probed again. Tests that call Probe directly never touch the disk.
func UseProbeCache(dir string) {
	probeMu.Lock()
	defer probeMu.Unlock()
	probeDiskDir = dir
}

// probeSettings are the kernel switches that decide whether unprivileged user namespaces work;
// a change to any of them changes the cache key.
var probeSettings = []string{
	"/proc/sys/kernel/unprivileged_userns_clone",
	"/proc/sys/user/max_user_namespaces",
	"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
}

// probeKey names the answer for this binary (path, inode, size, modification time), kernel
// (release and build), Landlock ABI, user and the settings above; false when self cannot be
// read.
func probeKey(self string, abi int) (string, bool) {
	fi, err := os.Stat(self)
	if err != nil {
		return "", false
	}
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return "", false
	}
	h := sha256.New()
	_, _ = fmt.Fprintf(h, "awf-sandbox-probe/1\x00%s\x00%d\x00%d\x00%d\x00%s\x00%s\x00%d\x00%d\x00", self, ino, fi.Size(),
		fi.ModTime().UnixNano(), unix.ByteSliceToString(u.Release[:]), unix.ByteSliceToString(u.Version[:]), abi, os.Getuid())
	for _, f := range probeSettings {
		b, _ := os.ReadFile(f)
		_, _ = h.Write(append(b, 0))
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), true
}

const enforcedMark = "enforced\n"

// probeThroughDisk is probe with the disk cache of UseProbeCache; probeMu is held.
func probeThroughDisk(self string) Status {
	if probeDiskDir == "" {
		return probe(self)
	}
	abi := ABI()
	key, ok := probeKey(self, abi)
	if !ok || abi < 1 {
		return probe(self)
	}
	file := filepath.Join(probeDiskDir, "sandbox-probe-"+key)
	if b, err := os.ReadFile(file); err == nil && string(b) == enforcedMark {
		return Status{Enforced: true, ABI: abi}
	}
	st := probe(self)
	if st.Enforced {
		_ = writeMark(file)
	}
	return st
}

// writeMark writes the positive answer atomically (a reader sees all of it or nothing).
func writeMark(file string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".sandbox-probe-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(enforcedMark)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v %v", tmp.Name(), werr, cerr)
	}
	return os.Rename(tmp.Name(), file)
}
