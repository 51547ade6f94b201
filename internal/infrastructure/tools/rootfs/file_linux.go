//go:build linux

package rootfs

import (
	"io"
	"io/fs"
	"runtime"
	"syscall"
)

// beneathFile is a regular file opened by the openat2 path, read with plain read(2). It stands
// in for *os.File because wrapping the descriptor with os.NewFile costs an fcntl (and, for a
// descriptor opened O_NONBLOCK, an epoll_ctl the kernel refuses for a regular file), and Stat
// would fstat once more what openRegular has just checked: with syscalls at a few µs each on a
// loaded machine, those two were most of what kept a confined Read from the 5 %.
type beneathFile struct {
	fd      int
	info    *statInfo // the fstat of the open descriptor, made by openRegular
	cleanup runtime.Cleanup
}

// newBeneathFile takes ownership of fd; a file its caller forgets to close is closed when it is
// collected, as an *os.File would be.
func newBeneathFile(fd int, info *statInfo) *beneathFile {
	f := &beneathFile{fd: fd, info: info}
	f.cleanup = runtime.AddCleanup(f, func(fd int) { _ = syscall.Close(fd) }, fd)
	return f
}

// maxReadChunk keeps one read(2) below what Linux transfers at once (as os does).
const maxReadChunk = 1 << 30

// Read reads from the file's offset; 0 bytes read from a non-empty p is io.EOF.
func (f *beneathFile) Read(p []byte) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: fs.ErrClosed}
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(p) > maxReadChunk {
		p = p[:maxReadChunk]
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Stat returns what the fstat after the open found; a regular file's type cannot change, and
// its size and times are as of the open (callers size buffers and keep modes with it).
func (f *beneathFile) Stat() (fs.FileInfo, error) {
	if f.fd < 0 {
		return nil, &fs.PathError{Op: "stat", Path: f.info.name, Err: fs.ErrClosed}
	}
	return f.info, nil
}

// Close closes the descriptor; a second Close is an error, as for *os.File.
func (f *beneathFile) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.info.name, Err: fs.ErrClosed}
	}
	f.cleanup.Stop()
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.info.name, Err: err}
	}
	return nil
}
