//go:build linux

package rootfs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/tests/testkit"
)

// BenchmarkConfinedOpen compares the confined open of a Read (Root.openRegular: refuse a
// non-regular file without opening it, open, check what was opened) of a small file three
// directories below the root, read to its end, four ways, alternating in each round so that a
// load change hits all of them: a plain os.Open of the joined path (no confinement: the floor),
// openat2 (what Open picks on Linux), openat2 with the open for reading made by reopening the
// O_PATH descriptor through /proc/self/fd instead of a second lookup (the design not taken), and
// os.Root alone (the fallback, and what every Linux build did before). It reports each p50 and
// its ratio to plain; the target is a confined Read at most 5 % slower than an
// unconfined one (BenchmarkReadConfinement is the whole call).
func BenchmarkConfinedOpen(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	testkit.WriteBenchFile(b, root)
	path := filepath.Join(root, testkit.BenchFile)
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	at := openBeneathDir(root)
	if at == nil {
		b.Skip("openat2 is not available here: the Root uses os.Root only")
	}
	defer at.close()
	beneath := &Root{root: root, fs: r, at: at}
	viaRoot := &Root{root: root, fs: r}
	viaProc := func() (io.ReadCloser, error) {
		pfd, err := at.open(testkit.BenchFile, unix.O_PATH)
		if err != nil {
			return nil, err
		}
		info := &statInfo{name: "f.go"}
		if err := syscall.Fstat(pfd, &info.st); err != nil || !info.Mode().IsRegular() {
			unix.Close(pfd)
			return nil, errors.New("not a regular file")
		}
		fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pfd), unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		unix.Close(pfd)
		if err != nil {
			return nil, err
		}
		if err := syscall.Fstat(fd, &info.st); err != nil {
			unix.Close(fd)
			return nil, err
		}
		return newBeneathFile(fd, info), nil
	}
	buf := make([]byte, 8192)
	testkit.CompareWays(b,
		readVia(b, "plain", buf, func() (io.ReadCloser, error) { return os.Open(path) }),
		readVia(b, "openat2", buf, func() (io.ReadCloser, error) { return beneath.OpenRegular(path) }),
		readVia(b, "openat2-proc", buf, viaProc),
		readVia(b, "osroot", buf, func() (io.ReadCloser, error) { return viaRoot.OpenRegular(path) }))
}
