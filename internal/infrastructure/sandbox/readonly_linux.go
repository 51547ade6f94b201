package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// readOnlyOutside makes every mount of the namespace read-only except the writable paths,
// which are first bound onto themselves so they stay writable mounts of their own. Landlock
// already refuses writes outside them, but not chmod, chown, utimes or xattr changes of files
// the user owns; a read-only mount refuses those too (EROFS). /proc is left alone: a fresh one
// is mounted over it.
func readOnlyOutside(writable []string) error {
	for _, w := range writable {
		if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("cannot bind the writable path %s: %v", w, err)
		}
	}
	points, err := mountPoints()
	if err != nil {
		return err
	}
	for _, mp := range points {
		if under(mp, "/proc") || underAny(mp, writable) {
			continue
		}
		if err := remountReadOnly(mp); err != nil {
			return err
		}
	}
	// The working directory still points into the mount under the new binds: enter it again
	// so relative paths resolve through the writable bind.
	if wd, err := os.Getwd(); err == nil {
		if err := os.Chdir(wd); err != nil {
			return fmt.Errorf("cannot re-enter %s: %v", wd, err)
		}
	}
	return nil
}

// remountReadOnly sets the read-only flag on the mount at path, keeping the flags the kernel
// locks on mounts inherited from the parent namespace (changing them is EPERM).
func remountReadOnly(path string) error {
	var st unix.Statfs_t
	flags := uintptr(0)
	if unix.Statfs(path, &st) == nil {
		flags = uintptr(st.Flags)
	}
	keep := uintptr(unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_NOATIME|unix.MS_NODIRATIME|unix.MS_RELATIME) & flags
	if err := unix.Mount("none", path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|keep, ""); err != nil {
		return fmt.Errorf("cannot make %s read-only: %v", path, err)
	}
	return nil
}

// mountPoints lists the namespace's mount points, parents first, without duplicates.
func mountPoints() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("cannot list the mounts: %v", err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMount(fields[4])
		if !seen[mp] {
			seen[mp] = true
			out = append(out, mp)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot list the mounts: %v", err)
	}
	sort.Strings(out)
	return out, nil
}

// unescapeMount decodes mountinfo's octal escapes (\040 for a space and the like).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v byte
			ok := true
			for _, c := range s[i+1 : i+4] {
				if c < '0' || c > '7' {
					ok = false
					break
				}
				v = v*8 + byte(c-'0')
			}
			if ok {
				b.WriteByte(v)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if under(p, filepath.Clean(d)) {
			return true
		}
	}
	return false
}
