//go:build linux

package rootfs

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/tests/testkit"
)

// beneathFixture is a root with every kind of entry the confined open must tell apart, and two
// Roots on it: one through openat2 (as Open sets it up on Linux) and one through os.Root
// alone (the fallback, forced on by leaving at nil).
type beneathFixture struct {
	root, outside  string
	beneath, root2 *Root
}

func newBeneathFixture(t *testing.T) beneathFixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "a", "b", "f.txt"), "inside\n")
	mustWrite(t, filepath.Join(outside, "secret"), "SECRET\n")
	links := map[string]string{
		"abs-out":   filepath.Join(outside, "secret"),
		"rel-out":   "../" + filepath.Base(outside) + "/secret",
		"rel-in":    "a/b/f.txt",
		"abs-in":    filepath.Join(root, "a", "b", "f.txt"),
		"dir-out":   outside,
		"loop":      "loop",
		"a/up-in":   "../a/b/f.txt",
		"a/up-out":  "../../" + filepath.Base(outside) + "/secret",
		"abs-in-dn": filepath.Join(root, "a"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	// rel-out must really reach the secret from the root, or it tests nothing.
	if b, err := os.ReadFile(filepath.Join(root, "rel-out")); err != nil || string(b) != "SECRET\n" {
		t.Fatalf("fixture: rel-out does not lead to the outside file: %q %v", b, err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	at := openBeneathDir(root)
	if at == nil {
		testkit.Skip(t, "openat2 is unavailable here (old kernel or seccomp): the Root uses os.Root only")
	}
	t.Cleanup(at.close)
	return beneathFixture{
		root: root, outside: outside,
		beneath: &Root{root: root, fs: r, at: at},
		root2:   &Root{root: root, fs: r},
	}
}

// readAll reads what openForRead opened, or returns the error's text.
func readAll(c *Root, p string) string {
	f, _, err := c.OpenForRead(p)
	if err != nil {
		return "error: " + err.Error()
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "read error: " + err.Error()
	}
	return string(b)
}

// TestOpenBeneath checks each case of the confined open twice: the openat2 lookup alone (which
// must refuse every escape in the kernel: EXDEV or ELOOP) and the whole openForRead through
// openat2 against the os.Root fallback, which must give the same result and the same message.
func TestOpenBeneath(t *testing.T) {
	fx := newBeneathFixture(t)
	tests := []struct {
		name string
		path string
		// lookup is the openat2 lookup's errno (0: it opens), want a text of the result
		lookup syscall.Errno
		want   string
	}{
		{"plain file", "a/b/f.txt", 0, "inside\n"},
		{"absolute path inside", filepath.Join(fx.root, "a/b/f.txt"), 0, "inside\n"},
		{"dot-dot that stays inside", "a/b/../b/f.txt", 0, "inside\n"},
		{"escape via dot-dot", "../" + filepath.Base(fx.outside) + "/secret", unix.EXDEV, "outside the allowed root"},
		{"escape via dot-dot below the root", "a/../../" + filepath.Base(fx.outside) + "/secret", unix.EXDEV, "outside the allowed root"},
		{"absolute symlink out", "abs-out", unix.EXDEV, "outside the allowed root"},
		{"relative symlink out", "rel-out", unix.EXDEV, "outside the allowed root"},
		{"relative symlink out below the root", "a/up-out", unix.EXDEV, "outside the allowed root"},
		{"directory symlink out", "dir-out/secret", unix.EXDEV, "outside the allowed root"},
		{"relative symlink inside", "rel-in", 0, "inside\n"},
		{"relative symlink with dot-dot inside", "a/up-in", 0, "inside\n"},
		// os.Root and RESOLVE_BENEATH refuse every absolute symlink; the Root resolves it
		// and reads the file when it points back inside, as before openat2.
		{"absolute symlink inside", "abs-in", unix.EXDEV, "inside\n"},
		{"absolute directory symlink inside", "abs-in-dn/b/f.txt", unix.EXDEV, "inside\n"},
		{"symlink loop", "loop", unix.ELOOP, "error: "},
		{"missing", "a/nothing", unix.ENOENT, "file does not exist"},
		{"directory", "a", 0, "is a directory"},
		{"root itself", ".", 0, "is a directory"},
		{"fifo", "fifo", 0, "named pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel := tt.path
			if filepath.IsAbs(rel) {
				rel = fx.beneath.Rel(rel)
			}
			fd, err := fx.beneath.at.open(rel, unix.O_PATH)
			if err == nil {
				unix.Close(fd)
			}
			if !errors.Is(err, tt.lookup) && !(tt.lookup == 0 && err == nil) {
				t.Fatalf("openat2 lookup of %s: %v, want errno %v", rel, err, tt.lookup)
			}
			got, old := readAll(fx.beneath, tt.path), readAll(fx.root2, tt.path)
			if got != old {
				t.Fatalf("openat2 and os.Root differ:\nopenat2: %s\nos.Root: %s", got, old)
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("got %q, want it to contain %q", got, tt.want)
			}
			if strings.Contains(got, "SECRET") {
				t.Fatalf("read the outside file: %q", got)
			}
		})
	}
}

// TestOpenBeneathRefusesSpecialFiles checks that the openat2 path itself (not the os.Root
// fallback) refuses a FIFO, a device and a socket, promptly: a FIFO is never opened for reading
// (which would block, or wake a writer waiting for a reader).
func TestOpenBeneathRefusesSpecialFiles(t *testing.T) {
	fx := newBeneathFixture(t)
	special := map[string]string{"fifo": "named pipe"}
	if err := unix.Mknod(filepath.Join(fx.root, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err == nil {
		special["null"] = "is a device"
	} else {
		t.Logf("mknod: %v; the device case runs on /dev/null below", err)
	}
	if l, err := net.Listen("unix", filepath.Join(fx.root, "sock")); err == nil {
		defer l.Close()
		special["sock"] = "is a socket"
	} else {
		t.Logf("no unix socket: %v", err)
	}
	for name, want := range special {
		start := time.Now()
		f, ok, err := fx.beneath.at.openRegular(name, filepath.Join(fx.root, name))
		if !ok || f != nil || err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: ok=%v f=%v err=%v, want a refusal with %q from the openat2 path", name, ok, f, err, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%s: the refusal took %v", name, d)
		}
	}
	// The real /dev/null, as TestReadRefusesSpecialFilesPromptly does through os.Root.
	dev := openBeneathDir("/dev")
	if dev == nil {
		t.Fatal("openat2 works on the fixture's root but not on /dev")
	}
	defer dev.close()
	if _, ok, err := dev.openRegular("null", "/dev/null"); !ok || err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Fatalf("/dev/null: ok=%v err=%v", ok, err)
	}
	// A writer waiting for a reader must still be waiting: O_PATH is not a reader.
	if fd, err := unix.Open(filepath.Join(fx.root, "fifo"), unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
		unix.Close(fd)
		t.Fatal("the FIFO has a reader after the refusal")
	} else if !errors.Is(err, unix.ENXIO) {
		t.Fatalf("open of the FIFO for writing: %v, want ENXIO (no reader)", err)
	}
}

// TestStatBeneath checks stat and lstat through openat2 against os.Root: same type, size, mode
// and time, the final symlink followed by stat only, and an absolute symlink back inside the
// root still followed by stat (resolved the long way, as before).
func TestStatBeneath(t *testing.T) {
	fx := newBeneathFixture(t)
	for _, p := range []string{"a/b/f.txt", "a", ".", "rel-in", "abs-in", "a/up-in", "fifo", "loop", "abs-out", "rel-out", "a/nothing"} {
		path := filepath.Join(fx.root, p)
		for _, follow := range []bool{true, false} {
			stat, name := fx.beneath.Stat, "stat"
			statRoot := fx.root2.Stat
			if !follow {
				stat, statRoot, name = fx.beneath.Lstat, fx.root2.Lstat, "lstat"
			}
			got, gerr := stat(path)
			want, werr := statRoot(path)
			if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Fatalf("%s(%s): openat2 %v, os.Root %v", name, p, gerr, werr)
			}
			if gerr != nil {
				continue
			}
			if got.Mode() != want.Mode() || got.Size() != want.Size() || !got.ModTime().Equal(want.ModTime()) || got.Name() != want.Name() || got.IsDir() != want.IsDir() {
				t.Fatalf("%s(%s): openat2 %v %d %v %q, os.Root %v %d %v %q", name, p,
					got.Mode(), got.Size(), got.ModTime(), got.Name(), want.Mode(), want.Size(), want.ModTime(), want.Name())
			}
			if _, ok := got.Sys().(*syscall.Stat_t); !ok {
				t.Fatalf("%s(%s): Sys is %T, want *syscall.Stat_t", name, p, got.Sys())
			}
		}
	}
	if fi, err := fx.beneath.Lstat(filepath.Join(fx.root, "abs-out")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("lstat of a symlink out of the root must describe the link itself: %v %v", fi, err)
	}
}

// TestBeneathFile checks the file the openat2 path returns behaves like an *os.File for the
// tools: reads to EOF, Stat of the open file, errors after Close.
func TestBeneathFile(t *testing.T) {
	fx := newBeneathFixture(t)
	f, err := fx.beneath.OpenRegular(filepath.Join(fx.root, "a/b/f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*beneathFile); !ok {
		t.Fatalf("openRegular returned %T, want the openat2 path's *beneathFile", f)
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() != int64(len("inside\n")) || !fi.Mode().IsRegular() || fi.Name() != "f.txt" {
		t.Fatalf("Stat: %v %v", fi, err)
	}
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "inside\n" {
		t.Fatalf("ReadAll: %q %v", b, err)
	}
	if n, err := f.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end: %d %v, want io.EOF", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("second Close: %v, want os.ErrClosed", err)
	}
	if _, err := f.Read(make([]byte, 4)); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Stat after Close: %v", err)
	}
}

// TestRootFallsBackToOSRoot checks both ends of the probe: Open uses openat2 where it works
// (this kernel), a root that cannot be opened gives no openat2 root, and a Root forced onto
// os.Root alone still reads and refuses escapes and directories with the same texts.
func TestRootFallsBackToOSRoot(t *testing.T) {
	if openBeneathDir(filepath.Join(t.TempDir(), "missing")) != nil {
		t.Fatal("openBeneathDir of a missing directory must give nil")
	}
	run := func(force bool) []string {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		c, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if c.at == nil {
			testkit.Skip(t, "openat2 is unavailable here (old kernel or seccomp): Open already uses os.Root only")
		}
		if force {
			c.at.close()
			c.at = nil
		}
		mustWrite(t, filepath.Join(root, "d", "f.txt"), "one\n")
		if err := os.Symlink("/etc/passwd", filepath.Join(root, "esc")); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range []string{"d/f.txt", "esc", "d", "missing"} {
			out = append(out, strings.ReplaceAll(readAll(c, p), root, "ROOT"))
		}
		return out
	}
	got, fallback := run(false), run(true)
	for i := range got {
		if got[i] != fallback[i] {
			t.Fatalf("path %d: openat2 %q, os.Root %q", i, got[i], fallback[i])
		}
	}
	if got[0] != "one\n" || !strings.Contains(got[1], "outside the allowed root") || !strings.Contains(got[2], "is a directory") {
		t.Fatalf("unexpected results: %q", got)
	}
}

// TestBeneathCloseWhileInUse checks that closing the root's descriptor while lookups run (the
// provider's Close with calls in flight) leaves every lookup either done on the root or refused
// with EBADF, never started from a closed (or reused) descriptor number, and that lookups after
// the close hand over to os.Root.
func TestBeneathCloseWhileInUse(t *testing.T) {
	fx := newBeneathFixture(t)
	at := openBeneathDir(fx.root)
	want := new(syscall.Stat_t)
	if err := syscall.Stat(filepath.Join(fx.root, "a/b/f.txt"), want); err != nil {
		t.Fatal(err)
	}
	start := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			<-start
			for {
				fd, err := at.open("a/b/f.txt", unix.O_PATH)
				if err != nil {
					if errors.Is(err, unix.EBADF) {
						errs <- nil
					} else {
						errs <- err
					}
					return
				}
				var st syscall.Stat_t
				err = syscall.Fstat(fd, &st)
				unix.Close(fd)
				if err != nil || st.Ino != want.Ino || st.Dev != want.Dev {
					errs <- fmt.Errorf("a lookup opened something else: %v %+v", err, st)
					return
				}
			}
		}()
	}
	close(start)
	at.close()
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := at.openRegular("a/b/f.txt", "x"); ok {
		t.Fatal("openRegular after close did not hand over to os.Root")
	}
	if _, ok := at.stat("a/b/f.txt", "f.txt", false); ok {
		t.Fatal("stat after close did not hand over to os.Root")
	}
}
