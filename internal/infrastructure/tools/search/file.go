package search

import (
	"errors"
	"fmt"
	"runtime/debug"
	"syscall"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// keepBufferMax is the largest read buffer a worker keeps for its next file: most source files
// are smaller. A larger file is read into a buffer lent by bigBuffers.
const keepBufferMax = 256 << 10

// bigBudget bounds the memory of the read buffers larger than keepBufferMax, for all Grep
// workers of the process together; a worker waits for one (every holder gives it back after one
// file). Each worker used to keep a buffer as large as the largest file it had
// read (up to 4 MiB): eight whole-tree Greps at once, sixteen workers on two cores, peaked at
// 56 MiB of RSS on GOROOT/src, whose largest file is 3 MB.
const bigBudget = 8 << 20

// mmapThreshold is the size from which Grep maps a file instead of reading it: memory then
// stays flat however large the file (or its longest line) is.
const mmapThreshold = bigBudget * 8 / 9

// fileReader loads whole files for one Grep worker, reusing its buffer. Raw syscalls avoid the
// os.File poller registration, which costs a syscall per file on a tree of thousands of files.
type fileReader struct {
	buf []byte
}

// loaded is a file's content and metadata; release must be called when done with data.
type loaded struct {
	data  []byte
	mtime int64 // nanoseconds since the epoch
	unmap bool
	lent  []byte // the buffer bigBuffers lent for data (data may have outgrown it)
}

// errNotRegular marks an entry that turned out not to be a regular file when opened.
var errNotRegular = errors.New("not a regular file")

// load reads the file e. Non-regular files are refused before any read (O_NONBLOCK keeps a FIFO
// that replaced a file after the walk from blocking the open).
func (r *fileReader) load(c *rootfs.Root, e walkFile) (loaded, error) {
	f, err := e.openFile(c, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY)
	if err != nil {
		return loaded{}, err
	}
	defer f.Close()
	fd := int(f.Fd())
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return loaded{}, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return loaded{}, errNotRegular
	}
	mtime := statMtime(&st)
	size := int(st.Size)
	if size == 0 {
		return loaded{mtime: mtime}, nil
	}
	if size >= mmapThreshold {
		data, err := syscall.Mmap(fd, 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
		if err == nil {
			return loaded{data: data, mtime: mtime, unmap: true}, nil
		}
	}
	// One byte more than the size tells a file that grew; an eighth more spares a reallocation
	// for the next, slightly larger file.
	var lent []byte
	buf, need := r.buf, size+1
	switch {
	case cap(buf) >= need:
	case need <= keepBufferMax:
		buf = make([]byte, min(need+size/8, keepBufferMax))
		r.buf = buf
	case need <= bigBudget:
		lent = bigBuffers.take(need)
		buf = lent
	default: // larger than the budget, and mmap failed
		buf = make([]byte, need)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) { // the file grew while being read
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
		k, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			loaded{lent: lent}.release()
			return loaded{}, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	if lent == nil && cap(buf) <= keepBufferMax {
		r.buf = buf
	}
	return loaded{data: buf[:n], mtime: mtime, lent: lent}, nil
}

// release unmaps a mapped file and gives a lent buffer back.
func (l loaded) release() {
	if l.unmap {
		_ = syscall.Munmap(l.data)
	}
	if l.lent != nil {
		bigBuffers.give(l.lent)
	}
}

// guardFaults runs fn with page faults turned into panics and recovered: a mapped file that is
// truncated while being searched raises SIGBUS, which must cost that file, not the server.
func guardFaults(fn func()) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("file changed while being searched: %v", r)
		}
	}()
	fn()
	return nil
}
