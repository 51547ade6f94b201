package confine

import (
	"os"
	"syscall"
	"unsafe"
)

// The new mount API (Linux 5.2 for open_tree and move_mount, 5.12 for mount_setattr; Landlock
// needs 5.13, so every kernel the sandbox runs on has it) changes a whole mount tree in one
// call, where remounting each mount read-only took a /proc/self/mountinfo scan and two system
// calls per mount. The numbers are the same on every architecture Go supports on Linux.
const (
	sysOpenTree     = 428
	sysMoveMount    = 429
	sysMountSetattr = 442

	atFdcwd             = -100
	atRecursive         = 0x8000
	openTreeClone       = 1
	moveMountFEmptyPath = 0x4
	mountAttrRdonly     = 0x1
)

// mountAttr is struct mount_attr.
type mountAttr struct {
	set, clr, propagation, usernsFD uint64
}

// readOnlyOutside makes every mount of the namespace read-only except the writable paths.
// Landlock already refuses writes outside them, but not chmod, chown, utimes or xattr changes
// of files the user owns; a read-only mount refuses those too (EROFS). Each writable path's
// mount tree is cloned first, as it is, then the whole tree from / is made read-only, then the
// clones are mounted back over the writable paths, which so keep their own flags (a path on a
// mount the parent namespace has read-only stays read-only, as the kernel requires). The
// namespace is made private first, so nothing done here propagates anywhere.
func readOnlyOutside(writable []string) error {
	if err := setAttr("/", mountAttr{propagation: syscall.MS_PRIVATE}); err != nil {
		return wrap("cannot make the mount namespace private", err)
	}
	trees := make([]int, 0, len(writable))
	defer func() {
		for _, fd := range trees {
			syscall.Close(fd)
		}
	}()
	for _, w := range writable {
		fd, err := openTree(w)
		if err != nil {
			return wrap("cannot clone the mounts of the writable path "+w, err)
		}
		trees = append(trees, fd)
	}
	if err := setAttr("/", mountAttr{set: mountAttrRdonly}); err != nil {
		return wrap("cannot make the mounts read-only", err)
	}
	for i, w := range writable {
		if err := moveMount(trees[i], w); err != nil {
			return wrap("cannot mount the writable path "+w, err)
		}
	}
	// The working directory still points into the read-only mount under the new ones: enter
	// it again so relative paths resolve through a writable path's mount.
	return reenterWorkdir()
}

// bindReadOnly makes path read-only in this mount namespace: a bind mount of it onto itself,
// made read-only with everything mounted beneath it. A missing path is skipped (nothing to
// protect).
func bindReadOnly(path string) error {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	if err := syscall.Mount(path, path, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return wrap("cannot bind "+path, err)
	}
	if err := setAttr(path, mountAttr{set: mountAttrRdonly}); err != nil {
		return wrap("cannot make "+path+" read-only", err)
	}
	return nil
}

// setAttr applies attr to the mount at path and every mount beneath it.
func setAttr(path string, attr mountAttr) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	dirfd := atFdcwd
	_, _, errno := syscall.Syscall6(sysMountSetattr, uintptr(dirfd), uintptr(unsafe.Pointer(p)), atRecursive, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// openTree clones the mount tree at path into a detached tree, returned as a file descriptor.
func openTree(path string) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	dirfd := atFdcwd
	fd, _, errno := syscall.Syscall(sysOpenTree, uintptr(dirfd), uintptr(unsafe.Pointer(p)), openTreeClone|syscall.O_CLOEXEC|atRecursive)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// moveMount attaches the detached tree fd over path.
func moveMount(fd int, path string) error {
	empty, _ := syscall.BytePtrFromString("")
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	dirfd := atFdcwd
	_, _, errno := syscall.Syscall6(sysMoveMount, uintptr(fd), uintptr(unsafe.Pointer(empty)), uintptr(dirfd), uintptr(unsafe.Pointer(p)), moveMountFEmptyPath, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
