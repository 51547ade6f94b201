package cli

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// Defaults of Config.
const (
	DefaultLinger    = 3 * time.Second
	DefaultMaxStdout = 64 << 20
	DefaultMaxStderr = 64 << 10
	// drainWait bounds how long Run waits for the output pipes to close once the group is
	// gone: a process that left the group (setsid) could otherwise hold them open forever.
	drainWait = 2 * time.Second
)

// Config is what every CLI run shares. The zero value is ready to use.
type Config struct {
	// Environ is the environment the CLI inherits before the provider's additions; nil means
	// os.Environ(). Binary lookup (PATH, AWF_<PROVIDER>_BIN) reads it too, so a test can run
	// entirely on a made-up environment.
	Environ []string
	// Grace is the SIGTERM→SIGKILL delay; default process.DefaultGrace (5 s, docs/design.md#processes-and-files).
	Grace time.Duration
	// Linger is how long the group may outlive its leader before SIGTERM: the CLI's MCP server
	// exits on stdin EOF and flushes its spans meanwhile. Default DefaultLinger.
	Linger time.Duration
	// MaxStdout bounds the stdout kept (the JSON report); default DefaultMaxStdout.
	MaxStdout int
	// MaxStderr is how much of stderr's end is kept; default DefaultMaxStderr.
	MaxStderr int
}

func (c Config) environ() []string {
	if c.Environ == nil {
		return os.Environ()
	}
	return c.Environ
}

func (c Config) withDefaults() Config {
	if c.Grace <= 0 {
		c.Grace = process.DefaultGrace
	}
	if c.Linger <= 0 {
		c.Linger = DefaultLinger
	}
	if c.MaxStdout <= 0 {
		c.MaxStdout = DefaultMaxStdout
	}
	if c.MaxStderr <= 0 {
		c.MaxStderr = DefaultMaxStderr
	}
	return c
}

// Command is one CLI invocation, fully decided.
type Command struct {
	Provider string   // names the CLI in errors ("claude")
	Path     string   // the resolved binary
	Args     []string // without the binary
	Dir      string   // working directory; "" is awf's
	Env      []string // the complete environment
	// Watch, when set, reads each line the CLI prints as it runs; the first reason it gives
	// stops the CLI (GaveUp) instead of waiting for the step's timeout.
	Watch Watch
}

// Result is what a finished CLI left behind.
type Result struct {
	ExitCode        int // 128+N when killed by signal N, as shells report it
	Stdout          []byte
	StdoutTruncated bool
	Stderr          string // the end of stderr, at most MaxStderr bytes
	Duration        time.Duration
}

// Run runs the CLI with stdin on /dev/null under a reaper (process.StartLingering), in its own
// process group with a parent-death signal. A non-zero exit is a Result, not an error. The
// error is for a CLI that could not start (fault.ExecutionAgentCLINotFound,
// fault.ExecutionAgentSetup) or that was stopped because ctx ended (fault.ExecutionAgentStopped,
// wrapping a *process.CancelledError and so ctx's cause): SIGTERM, Grace, then SIGKILL, sent to
// every process the CLI started. Either way, Run returns only once none of those processes is
// left, setsid and double-forked ones included; without a reaper, once none is left in the
// CLI's group and the groups its descendants were seen to move into.
func (c Config) Run(ctx context.Context, command Command) (Result, error) {
	c = c.withDefaults()
	if command.Dir != "" {
		// exec reports a bad Dir as the binary missing ("fork/exec …: no such file"): check first.
		if fi, err := os.Stat(command.Dir); err != nil || !fi.IsDir() {
			return Result{}, fault.New(fault.ExecutionAgentSetup, "cannot run %s in %s: not an existing directory", command.Provider, command.Dir).
				WithHint("the step's dir must be an existing directory")
		}
	}
	stdout, stderr := &headBuffer{max: c.MaxStdout}, &tailBuffer{max: c.MaxStderr}
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create a pipe for %s", command.Provider)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return Result{}, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create a pipe for %s", command.Provider)
	}
	cmd := exec.Command(command.Path, command.Args...)
	cmd.Dir, cmd.Env = command.Dir, command.Env
	// *os.File outputs go to the child as they are: exec starts no copier, so Wait returns as
	// soon as the CLI exits even if a straggler holds the pipes, and the family is settled.
	cmd.Stdout, cmd.Stderr = outW, errW
	began := time.Now()
	// Under a reaper, so that what the CLI starts with setsid or a double fork ends with the
	// step too; its MCP server may still flush its spans for Linger after the CLI is gone.
	exited, err := process.StartLingering(cmd, c.Linger, c.Grace)
	if err != nil {
		closeAll(outR, outW, errR, errW)
		return Result{}, startError(command, err)
	}
	closeAll(outW, errW)
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	gave := &givingUp{cancel: cancel}
	var pumps sync.WaitGroup
	pumps.Add(2)
	go pump(watched(stdout, false, command.Watch, gave.stop), outR, &pumps)
	go pump(watched(stderr, true, command.Watch, gave.stop), errR, &pumps)

	var (
		werr    error
		stopped bool
		status  *syscall.WaitStatus
	)
	if exited != nil {
		stopped, status, werr = superviseReaper(wctx, cmd, exited, c.Grace)
	} else {
		werr, stopped = supervise(wctx, cmd, c.Linger, c.Grace)
	}
	drain(&pumps, drainWait, outR, errR)
	res := Result{Stderr: stderr.String(), Duration: time.Since(began)}
	res.Stdout, res.StdoutTruncated = stdout.result()
	res.ExitCode = exitCode(cmd.ProcessState)
	if status != nil {
		res.ExitCode = statusCode(*status)
	}
	if stopped && ctx.Err() == nil && gave.given() {
		return res, GaveUp(command.Provider, gave.reason, gave.line, res)
	}
	if stopped {
		cause := context.Cause(ctx)
		return res, fault.Wrap(&process.CancelledError{Cause: cause, Wait: werr}, fault.ExecutionAgentStopped,
			"stopped %s and every process it started", command.Provider)
	}
	return res, nil
}

// supervise waits for the CLI while watching which process groups its descendants use. On a
// normal exit the family is settled (linger, SIGTERM, grace, SIGKILL); when ctx ends first it
// gets SIGTERM, grace, SIGKILL. stopped says which.
func supervise(ctx context.Context, cmd *exec.Cmd, linger, grace time.Duration) (werr error, stopped bool) {
	fam := newFamily(cmd.Process.Pid)
	quit, watched := make(chan struct{}), make(chan struct{})
	go func() { fam.watch(quit); close(watched) }()
	defer func() { close(quit); <-watched }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case werr = <-done:
		fam.settle(linger, grace, ctx.Done())
		return werr, false
	case <-ctx.Done():
	}
	fam.scan() // the freshest picture, while the CLI still links its children to it
	fam.stop(grace)
	return <-done, true
}

// drain waits for the output pumps to reach EOF, closing the read ends after d so that a
// process outside the group holding a pipe cannot hang the step.
func drain(pumps *sync.WaitGroup, d time.Duration, readers ...*os.File) {
	finished := make(chan struct{})
	go func() { pumps.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(d):
		closeAll(readers...)
		<-finished
	}
	closeAll(readers...)
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// statusCode is exitCode for a wait status the reaper reported.
func statusCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// startError explains why the CLI did not start: a missing or non-executable binary (or
// script interpreter).
func startError(command Command, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOEXEC) {
		return fault.Wrap(err, fault.ExecutionAgentCLINotFound, "cannot execute %s binary %s", command.Provider, command.Path).
			WithHint("check that the file exists, is executable and, for a script, that its interpreter is installed")
	}
	return fault.Wrap(err, fault.ExecutionAgentSetup, "cannot start %s (%s)", command.Provider, command.Path)
}
