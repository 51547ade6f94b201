package plugins

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// manifestFile names plugins.yaml for messages.
func (h *Host) manifestFile() string { return h.opts.File }

// resolveCommand finds a plugin's executable: absolute as is; with a path separator, relative
// to the project root; a bare name in the project root, else on PATH.
func resolveCommand(root, file string, spec Spec) (string, error) {
	c := spec.Command
	switch {
	case filepath.IsAbs(c):
	case strings.ContainsRune(c, '/') || strings.ContainsRune(c, filepath.Separator):
		c = filepath.Join(root, c)
	default:
		if st, err := os.Stat(filepath.Join(root, c)); err == nil && !st.IsDir() {
			c = filepath.Join(root, c)
		} else if p, err := exec.LookPath(c); err == nil {
			c = p
		} else {
			return "", notFound(spec, file, filepath.Join(root, c), "it is neither in the project root nor on PATH")
		}
	}
	st, err := os.Stat(c)
	switch {
	case err != nil:
		return "", notFound(spec, file, c, "it does not exist")
	case st.IsDir():
		return "", notFound(spec, file, c, "it is a directory")
	case st.Mode()&0o111 == 0:
		return "", notFound(spec, file, c, "it is not executable (chmod +x)")
	}
	return c, nil
}

func notFound(spec Spec, file, path, why string) error {
	return fault.New(fault.UserPluginsCommandNotFound, "plugin %q cannot start: command %s: %s", spec.Name, path, why).
		At(spec.CommandPos).
		WithHint("build the plugin (`make plugins` builds the examples into bin/plugins) or fix `command` in %s", file)
}

// startError explains a failed start, with the last thing the plugin wrote to stderr.
func (i *instance) startError(parent, ctx context.Context, err error, tail *tailBuffer) error {
	if i.h.isClosed() {
		return errClosed
	}
	out := ""
	if t := tail.String(); t != "" {
		out = "; its last output: " + t
	}
	switch {
	case parent.Err() != nil:
		return fault.Wrap(parent.Err(), fault.ExecutionPluginStartFailed, "starting plugin %q was cancelled", i.spec.Name)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fault.New(fault.ExecutionPluginStartFailed, "plugin %q did not start within %s%s", i.spec.Name, i.h.opts.StartTimeout, out).
			At(i.spec.Pos).
			WithHint("run %s by hand to see whether it hangs; a plugin must call plugin.Serve promptly", i.spec.Command)
	}
	return fault.Wrap(err, fault.ExecutionPluginStartFailed, "plugin %q failed to start: %v%s", i.spec.Name, err, out).
		At(i.spec.Pos).
		WithHint("check that %s is an awf plugin built with pkg/plugin; its log lines are in awf's log", i.spec.Command)
}

func initRejected(err error) bool { return status.Code(err) == codes.InvalidArgument }

func initError(spec Spec, file string, err error) error {
	return fault.New(fault.UserPluginsInitFailed, "plugin %q rejected its config: %s", spec.Name, status.Convert(err).Message()).
		At(spec.Pos).
		WithHint("fix `config:` of plugin %s in %s", spec.Name, file)
}

func crashLoopError(name string, crashes int, last error) error {
	e := fault.New(fault.ExecutionPluginCrashLoop, "plugin %q failed %d times in a row (it died or did not start); awf no longer starts it in this session", name, crashes)
	if last != nil {
		e.Err = last
	}
	return e.WithHint("see awf's log for the plugin's last output, fix the plugin, and run the step again")
}

// tailBuffer keeps the last bytes a plugin wrote to stderr, for start errors.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept output on one line.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.buf)), " ")
}
