package runindex

import (
	"errors"

	"golang.org/x/sys/unix"
)

// errNotRegular is a run file that is a link, a directory or a device: never read.
var errNotRegular = errors.New("not a regular file")

// statAt stats name relative to the open runs directory dirfd without following a link at its
// end. A list stats every run's state.json: relative to an open directory, the kernel does not
// walk the project's path again 10,000 times, and nothing is allocated.
func statAt(dirfd int, name string) (stamp, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return stamp{}, err
		}
		break
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		return stamp{}, errNotRegular
	}
	return stamp{Size: st.Size, MTime: st.Mtim.Nano(), Ino: int64(st.Ino)}, nil
}

// dirLinks is the link count of the open directory dirfd: two plus its subdirectories where
// the file system keeps that count (ext4, xfs, tmpfs, APFS), which changes when a run
// directory is made or removed.
func dirLinks(dirfd int) (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(dirfd, &st); err != nil {
		return 0, err
	}
	return int64(st.Nlink), nil
}
