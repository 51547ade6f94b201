package plugins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// procRunner starts a plugin process for go-plugin. It replaces go-plugin's default runner for
// three reasons: the plugin must not inherit awf's stdin (in `awf mcp-serve` that is the MCP
// stream, which a plugin reading stdin would corrupt); it runs in its own process group and dies
// with awf (parent-death signal, Linux); and it runs under a reaper (process.Contain), so that
// when it ends or is killed, whatever it spawned is killed with it, setsid and double-forked
// processes included: no plugin process outlives the step.
type procRunner struct {
	cmd    *exec.Cmd
	path   string // the plugin's binary; cmd.Path is the reaper's once contained
	stdout io.ReadCloser
	stderr io.ReadCloser
	logger hclog.Logger

	mu      sync.Mutex
	pid     int
	killed  bool // Kill came first: Start must not start anything
	reaped  bool
	exitErr error // how the process ended, once reaped
}

var _ runner.Runner = (*procRunner)(nil)

func newProcRunner(logger hclog.Logger, cmd *exec.Cmd) (*procRunner, error) {
	cmd.Stdin = nil // /dev/null: never awf's stdin
	path := cmd.Path
	setProcAttr(cmd)
	process.Contain(cmd, reapGrace)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	return &procRunner{cmd: cmd, path: path, stdout: stdout, stderr: stderr, logger: logger}, nil
}

// reapGrace is how long a plugin's processes get between SIGTERM and SIGKILL when its reaper
// is told to stop; go-plugin's own stop sends SIGKILL, which KillTree passes on to them all.
const reapGrace = time.Second

// Start starts the process, unless Kill was called first (an aborted start).
func (r *procRunner) Start(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.killed {
		return errors.New("plugin start aborted")
	}
	// StartMapped: a plugin without network gets a user namespace whose id maps awf writes,
	// which a non-dumpable mcp-serve may do only while it is dumpable again.
	if err := sandbox.StartMapped(r.cmd); err != nil {
		return err
	}
	r.pid = r.cmd.Process.Pid
	r.logger.Debug("plugin process started", "path", r.path, "pid", r.pid)
	return nil
}

// Wait waits for the process to end, then kills what is left of its process group before
// reaping it (the group id cannot be reused while the exited leader is unreaped).
func (r *procRunner) Wait(context.Context) error {
	waitExit(r.pid)
	killGroup(r.pid)
	err := r.cmd.Wait()
	r.mu.Lock()
	r.reaped, r.exitErr = true, err
	r.mu.Unlock()
	return err
}

// Kill kills the process and its group. Killing an already-ended process is not an error.
func (r *procRunner) Kill(context.Context) error {
	r.mu.Lock()
	r.killed = true
	pid, reaped := r.pid, r.reaped
	r.mu.Unlock()
	if pid == 0 || reaped {
		return nil
	}
	killGroup(pid)
	if err := r.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// ExitError returns how the process ended, once it has: nil for a clean exit, else the
// *exec.ExitError ("signal: killed", "exit status 2"). ok is false while it runs.
func (r *procRunner) ExitError() (err error, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exitErr, r.reaped
}

// PID returns the process id, 0 before Start.
func (r *procRunner) PID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

func (r *procRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *procRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *procRunner) Name() string          { return r.path }

// ID is the pid; go-plugin treats "" as "nothing to kill".
func (r *procRunner) ID() string {
	if pid := r.PID(); pid != 0 {
		return strconv.Itoa(pid)
	}
	return ""
}

// Diagnose explains a failed handshake.
func (r *procRunner) Diagnose(context.Context) string {
	return fmt.Sprintf("%s did not answer the awf plugin handshake: is it an awf plugin built with github.com/awf-dev/awf/pkg/plugin for this platform?", r.path)
}

func (r *procRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (r *procRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
