package confine

import "syscall"

// hide covers every hidden path that exists with an empty read-only directory or file, of the
// kind the path has (its symbolic links followed, as mount(2) follows them): credential stores
// read as empty, sockets cannot be connected to (a regular file is no socket). A hidden path
// the call must reach, being or holding the root, the temp directory or a writable path, is
// left alone: package sandbox already hid its other entries instead.
//
// The empty directory and file come from a small tmpfs, mounted over /proc while the binds are
// made and made read-only before them (the binds copy its flags: read-only, nosuid, nodev,
// noexec). It stays there: apply mounts the sandbox's own /proc over it next, which hides it
// and spares the unmount (about 0.1 ms, most of hiding's cost).
func hide(hidden, reach []string) error {
	var dirs, files []string
	for _, h := range hidden {
		var st syscall.Stat_t
		if reaches(h, reach) || syscall.Stat(h, &st) != nil {
			continue
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			dirs = append(dirs, h)
		} else {
			files = append(files, h)
		}
	}
	if len(dirs)+len(files) == 0 {
		return nil
	}
	const stage = "/proc"
	if err := mountEmpties(stage); err != nil {
		return err
	}
	if err := bindEach(stage+"/d", dirs); err != nil {
		return err
	}
	return bindEach(stage+"/f", files)
}

// mountEmpties mounts a tmpfs at stage holding an empty directory d and an empty file f, then
// makes it read-only.
func mountEmpties(stage string) error {
	const flags = syscall.MS_NOSUID | syscall.MS_NODEV | syscall.MS_NOEXEC
	if err := syscall.Mount("tmpfs", stage, "tmpfs", flags, "mode=0755,size=16k,nr_inodes=8"); err != nil {
		return wrap("cannot mount the staging tmpfs for hidden paths", err)
	}
	if err := syscall.Mkdir(stage+"/d", 0o555); err != nil {
		return wrap("cannot create the empty directory for hidden paths", err)
	}
	fd, err := syscall.Open(stage+"/f", syscall.O_CREAT|syscall.O_EXCL|syscall.O_RDONLY|syscall.O_CLOEXEC, 0o444)
	if err != nil {
		return wrap("cannot create the empty file for hidden paths", err)
	}
	syscall.Close(fd)
	if err := setAttr(stage, mountAttr{set: mountAttrRdonly}); err != nil {
		return wrap("cannot make the staging tmpfs read-only", err)
	}
	return nil
}

// bindEach binds src over every path in paths.
func bindEach(src string, paths []string) error {
	for _, p := range paths {
		if err := syscall.Mount(src, p, "", syscall.MS_BIND, ""); err != nil {
			return wrap("cannot hide "+p, err)
		}
	}
	return nil
}

// reaches says whether hidden is one of the paths or an ancestor of one.
func reaches(hidden string, paths []string) bool {
	for _, p := range paths {
		if p == hidden || strictlyUnder(p, hidden) {
			return true
		}
	}
	return false
}
