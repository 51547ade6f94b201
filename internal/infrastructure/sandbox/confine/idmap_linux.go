package confine

import (
	"errors"
	"syscall"
)

// ArgMapIDs follows ArgAwait with the caller's uid and gid: the spare writes its own user
// namespace's id maps, mapping each onto itself, before anything else. The parent cannot write
// them when it is not dumpable (mcp-serve makes itself so, to close its /proc/<pid>/environ and
// mem to its children): the kernel gives the files of a child forked from a non-dumpable
// process to root, until that child execs. A process may map its own ids in a user namespace
// it created, as `unshare --map-user` does.
const ArgMapIDs = "-map-ids"

// mapOwnIDs handles ArgMapIDs at the head of a spare's arguments (after ArgAwait) and returns
// the arguments that follow it; arguments without it are returned as they are.
func mapOwnIDs(spawn []string) ([]string, error) {
	if len(spawn) < 3 || spawn[0] != ArgMapIDs {
		return spawn, nil
	}
	uid, okU := atoi(spawn[1])
	gid, okG := atoi(spawn[2])
	if !okU || !okG {
		return nil, errors.New("bad ids after " + ArgMapIDs)
	}
	// setgroups must be denied before an unprivileged process may write its gid_map.
	if err := writeProc("/proc/self/setgroups", "deny"); err != nil && err != syscall.ENOENT {
		return nil, wrap("cannot deny setgroups in the helper's user namespace", err)
	}
	if err := writeProc("/proc/self/gid_map", itoa(gid)+" "+itoa(gid)+" 1\n"); err != nil {
		return nil, wrap("cannot write the helper's gid map", err)
	}
	if err := writeProc("/proc/self/uid_map", itoa(uid)+" "+itoa(uid)+" 1\n"); err != nil {
		return nil, wrap("cannot write the helper's uid map", err)
	}
	return spawn[3:], nil
}

// writeProc writes s to a /proc file in one write(2), as the id map files require.
func writeProc(path, s string) error {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	_, err = syscall.Write(fd, []byte(s))
	return err
}
