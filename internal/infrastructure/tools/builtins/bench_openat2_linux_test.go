//go:build linux

package builtins

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkConfinedOpen compares the confined open of a Read (confiner.openRegular: refuse a
// non-regular file without opening it, open, check what was opened) of a small file three
// directories below the root, read to its end, four ways, alternating in each round so that a
// load change hits all of them: a plain os.Open of the joined path (no confinement: the floor),
// openat2 (what New picks on Linux), openat2 with the open for reading made by reopening the
// O_PATH descriptor through /proc/self/fd instead of a second lookup (the design not taken), and
// os.Root alone (the fallback, and what every Linux build did before). It reports each p50 and
// its ratio to plain; the target is a confined Read at most 5 % slower than an
// unconfined one (BenchmarkReadConfinement is the whole call).
func BenchmarkConfinedOpen(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(root, "a", "b", "c", "f.go")
	rel := "a/b/c/f.go"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	at := openBeneathDir(root)
	if at == nil {
		b.Skip("openat2 is not available here: the confiner uses os.Root only")
	}
	defer at.close()
	beneath := confiner{root: root, fs: r, at: at}
	viaRoot := confiner{root: root, fs: r}
	viaProc := func() (io.ReadCloser, error) {
		pfd, err := at.open(rel, unix.O_PATH)
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
	read := func(open func() (io.ReadCloser, error)) time.Duration {
		start := time.Now()
		for range 20 {
			f, err := open()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(f, buf[:3600]); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		return time.Since(start) / 20
	}
	var plain, beneaths, procs, roots []time.Duration
	for b.Loop() {
		plain = append(plain, read(func() (io.ReadCloser, error) { return os.Open(path) }))
		beneaths = append(beneaths, read(func() (io.ReadCloser, error) { return beneath.openRegular(path) }))
		procs = append(procs, read(viaProc))
		roots = append(roots, read(func() (io.ReadCloser, error) { return viaRoot.openRegular(path) }))
	}
	p := quantile(plain, .5)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	b.ReportMetric(us(p), "plain-p50-us")
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"openat2", beneaths}, {"openat2-proc", procs}, {"osroot", roots}} {
		q := quantile(m.d, .5)
		b.ReportMetric(us(q), m.name+"-p50-us")
		b.ReportMetric(float64(q)/float64(p), m.name+"/plain")
	}
}
