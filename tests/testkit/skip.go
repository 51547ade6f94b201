package testkit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Skip skips t with reason and says so where a developer sees it. `go test ./...` shows nothing
// of a passing package but its "ok" line (no -v, no TestMain print gets through), so a skipped
// end-to-end test or freshness check would look like a pass. Skip writes one line,
// "SKIP <package> <test>: <reason>", straight to the go command's own stderr (or to ours when
// the go command is not our parent), and keeps the package's result out of the test cache so a
// rerun prints it again. With -v the usual "--- SKIP" line already carries the reason.
func Skip(t testing.TB, reason string) {
	t.Helper()
	ReportSkip(t.Name(), reason)
	t.Skip(reason)
}

// Skipf is Skip with a format.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	Skip(t, fmt.Sprintf(format, args...))
}

// ReportSkip writes the skip line for test without skipping anything; Skip uses it, and a
// TestMain that skips a whole package can call it directly.
func ReportSkip(test, reason string) {
	skipMu.Lock()
	defer skipMu.Unlock()
	if testing.Verbose() {
		return
	}
	if !skipUncached {
		skipUncached = true
		keepOutOfTestCache()
	}
	_, _ = io.WriteString(skipSink(), SkipLine(packagePath(), test, reason))
}

// SkipLine formats one report line: the reason on one line, so each skip is one greppable line.
func SkipLine(pkg, test, reason string) string {
	return fmt.Sprintf("SKIP %s %s: %s\n", pkg, test, strings.Join(strings.Fields(reason), " "))
}

var (
	skipMu       sync.Mutex
	skipUncached bool
)

// skipSink returns where skip lines go: the stderr of our parent when the parent is the go
// command (it hides our own output for passing packages), else our stderr. The parent's stderr
// is opened for appending, so a log file it writes to is never overwritten.
func skipSink() io.Writer {
	ppid := os.Getppid()
	comm, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(ppid), "comm"))
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return os.Stderr
	}
	f, err := os.OpenFile(filepath.Join("/proc", strconv.Itoa(ppid), "fd", "2"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return os.Stderr
	}
	return closingWriter{f}
}

// closingWriter closes the file after one write: each skip line is one write.
type closingWriter struct{ f *os.File }

func (w closingWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// packagePath is the import path of the package under test: a test binary's main module path is
// "<import path>.test".
func packagePath() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
		return strings.TrimSuffix(bi.Path, ".test")
	}
	return filepath.Base(os.Args[0])
}

// keepOutOfTestCache stops the go command from caching this package's result: a cached pass
// replays no skip line, and a skip caused by something outside the module (a CLI not installed)
// would stay cached after it is fixed. The go command refuses to cache a run that opened a file
// inside the module changed less than two seconds ago, so touch one under the ignored bin/ and
// open it. Best effort: without a module root the run is simply cacheable.
func keepOutOfTestCache() {
	root := moduleRoot()
	if root == "" {
		return
	}
	stamp := filepath.Join(root, "bin", ".test-skipped")
	if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
		return
	}
	if err := os.WriteFile(stamp, []byte(time.Now().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
		return
	}
	if f, err := os.Open(stamp); err == nil {
		_ = f.Close()
	}
}

// moduleRoot walks up from the working directory (the package's directory under go test) to the
// directory holding go.mod.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
