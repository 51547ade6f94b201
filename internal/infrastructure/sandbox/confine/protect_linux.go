package confine

import (
	"os"
	"syscall"
)

// A protected path names a directory when it ends in "/" (Policy.Protected), a file otherwise;
// the kind decides what covers it when it does not exist.

// protect makes every protected path read-only. Where one lies inside a writable path, that is
// not enough: a bind mount moves with its parent (`mv .git g; cp -r g .git` gives a writable
// copy) and a missing path can be created. So every ancestor between the writable path and the
// protected one is pinned, bound onto itself as it is (a mount point cannot be renamed or
// removed), and a missing protected path, or its highest missing ancestor, is covered by an
// empty placeholder created on disk and bound read-only. A file where a directory should be
// (a `.git` file of a worktree or submodule) is bound read-only itself, so it cannot be
// replaced by a directory holding hooks.
func protect(protected, writable []string) error {
	done := mounted{pinned: map[string]bool{}, covered: map[string]bool{}}
	for _, raw := range protected {
		path, dir := trimSlash(raw)
		if err := protectOne(path, dir, beneath(path, writable), done); err != nil {
			return err
		}
	}
	return reenterWorkdir()
}

// protectOne protects path; w is the writable path it lies strictly beneath, "" for none.
func protectOne(path string, dir bool, w string, done mounted) error {
	if w == "" {
		return done.once(path, bindReadOnly, false)
	}
	for _, a := range between(w, path) {
		var st syscall.Stat_t
		switch err := syscall.Lstat(a, &st); {
		case err != nil:
			return cover(a, true, done)
		case st.Mode&syscall.S_IFMT == syscall.S_IFDIR:
			if err := done.once(a, pin, true); err != nil {
				return err
			}
		default: // a file or symlink where a directory would be: it is covered as it is
			return done.once(a, bindReadOnly, false)
		}
	}
	return cover(path, dir, done)
}

// cover binds path read-only, creating an empty placeholder there first when it is missing. A
// placeholder the helper may not create (a read-only file system, a directory of another user)
// is not needed: the command, with the same uid and no capabilities, cannot create it either.
func cover(path string, dir bool, done mounted) error {
	var st syscall.Stat_t
	if syscall.Lstat(path, &st) != nil {
		var err error
		if dir {
			err = syscall.Mkdir(path, 0o755)
		} else {
			var fd int
			fd, err = syscall.Open(path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0o644)
			if err == nil {
				_, err = syscall.Write(fd, placeholderContent(path))
				syscall.Close(fd)
				if err != nil { // half a placeholder would be read as one
					syscall.Unlink(path)
				}
			}
		}
		switch err {
		case nil, syscall.EEXIST:
		case syscall.EACCES, syscall.EPERM, syscall.EROFS:
			return nil
		default:
			return wrap("cannot create a placeholder for the protected path "+path, err)
		}
	}
	return done.once(path, bindReadOnly, false)
}

// placeholderContent is what a file placeholder holds: nothing, except for git's commondir,
// which names the directory whose config, hooks and objects a git directory shares. A missing
// one means the git directory itself, and so does ".": an empty one is an error to git, and a
// step that could create one would point git at a config of its own.
func placeholderContent(path string) []byte {
	const name = "/commondir"
	if len(path) > len(name) && path[len(path)-len(name):] == name {
		return []byte(".\n")
	}
	return nil
}

// mounted records the pins and read-only binds made, each kept apart: a directory pinned as
// the ancestor of one protected path may be protected itself, and must then be bound read-only.
type mounted struct{ pinned, covered map[string]bool }

// once applies f to path unless it was applied already: pin when f is pin, else a cover.
func (m mounted) once(path string, f func(string) error, isPin bool) error {
	seen := m.covered
	if isPin {
		seen = m.pinned
	}
	if seen[path] {
		return nil
	}
	seen[path] = true
	return f(path)
}

// pin binds dir onto itself with everything mounted beneath it, keeping its flags: it stays as
// writable as it was, but is now a mount point, which rename(2) and rmdir(2) refuse (EBUSY).
func pin(dir string) error {
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return wrap("cannot pin "+dir, err)
	}
	return nil
}

// reenterWorkdir enters the working directory again after mounts over it or its ancestors, so
// relative paths resolve through the new mounts.
func reenterWorkdir() error {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	if err := os.Chdir(wd); err != nil {
		return wrap("cannot re-enter "+wd, err)
	}
	return nil
}

// trimSlash splits the directory mark off a protected path.
func trimSlash(p string) (string, bool) {
	if len(p) > 1 && p[len(p)-1] == '/' {
		return p[:len(p)-1], true
	}
	return p, false
}

// beneath is the longest writable path that path lies strictly beneath, "" when none.
func beneath(path string, writable []string) string {
	best := ""
	for _, w := range writable {
		if len(w) > len(best) && strictlyUnder(path, w) {
			best = w
		}
	}
	return best
}

func strictlyUnder(path, dir string) bool {
	if dir == "/" {
		return len(path) > 1 && path[0] == '/'
	}
	return len(path) > len(dir) && path[:len(dir)] == dir && path[len(dir)] == '/'
}

// between are the directories strictly between dir and its descendant path, shallowest first.
func between(dir, path string) []string {
	var out []string
	for i := len(dir) + 1; i < len(path); i++ {
		if path[i] == '/' {
			out = append(out, path[:i])
		}
	}
	return out
}
