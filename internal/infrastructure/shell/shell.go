// Package shell runs workflow command steps through the system shell, each in its own process
// group so a timeout or Ctrl+C takes down everything the command started.
package shell

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// Runner implements ports.CommandRunner with `sh -c` (or the request's shell).
type Runner struct {
	// Shell is the interpreter; default /bin/sh, as POSIX promises it exists.
	Shell string
	// Grace is the SIGTERM→SIGKILL delay; default process.DefaultGrace.
	Grace time.Duration
	// MaxOutput bounds what is kept of stdout and of stderr each; default 16 MiB. Past it the
	// head is kept and a note appended, so a chatty command cannot exhaust memory.
	MaxOutput int
}

// RunCommand implements ports.CommandRunner.
func (r Runner) RunCommand(ctx context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	sh, grace, max := r.Shell, r.Grace, r.MaxOutput
	if req.Shell != "" {
		sh = req.Shell
	}
	if sh == "" {
		sh = "/bin/sh"
	}
	if grace <= 0 {
		grace = process.DefaultGrace
	}
	if max <= 0 {
		max = 16 << 20
	}
	cmd := exec.Command(sh, "-c", req.Command)
	if req.Script && strings.HasPrefix(req.Command, "#!") {
		c, cleanup, err := scriptCommand(req.Command)
		defer cleanup()
		if err != nil {
			return ports.CommandResult{ExitCode: -1}, fault.Wrap(err, fault.SystemFSTemp, "cannot write the script to a temp file")
		}
		cmd, sh = c, c.Path
	}
	cmd.Dir = req.Dir
	cmd.Env = commandEnv(req.Env, req.Values)
	stdout, stderr := &capped{max: max}, &capped{max: max}
	cmd.Stdout, cmd.Stderr = tee(stdout, false, req.Live), tee(stderr, true, req.Live)
	err := process.Run(ctx, cmd, grace)
	flushAll(cmd.Stdout, cmd.Stderr)
	res := ports.CommandResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return res, nil
	case errors.As(err, &ee) && ctx.Err() == nil:
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal()) // killed from outside, as shells report it
		}
		return res, nil
	case ctx.Err() != nil:
		res.ExitCode = -1
		return res, err
	case req.Script && missingInterpreter(err):
		res.ExitCode = 127
		res.Stderr += sh + ": interpreter not found (from the script's #! line)\n"
		return res, nil
	default:
		return res, fault.Wrap(err, fault.ExecutionCommandStart, "cannot start %s", sh).WithHint("check that %s exists and the step's dir is a directory", sh)
	}
}

// commandEnv is base without the variables awf sets per command (inherited from an awf run
// this one runs inside), then the command's own values: a reference reads what this run set.
// A nil base is this process's environment, as for exec.Cmd.
func commandEnv(base, values []string) []string {
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+len(values))
	for _, kv := range base {
		if !strings.HasPrefix(kv, shellsafe.EnvPrefix) && !strings.HasPrefix(kv, workflow.InputEnvPrefix) {
			env = append(env, kv)
		}
	}
	return append(env, values...)
}

// capped is a writer that keeps the first max bytes and counts the rest.
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

func (c *capped) String() string {
	if c.dropped == 0 {
		return c.buf.String()
	}
	return c.buf.String() + "\n[awf: output truncated, " + strconv.Itoa(c.dropped) + " more bytes not kept]"
}
