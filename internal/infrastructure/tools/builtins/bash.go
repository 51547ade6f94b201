package builtins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// bashGrace is how long a timed-out or cancelled command's group has between SIGTERM and
// SIGKILL. Shorter than the 5 s of agent processes: a tool call is waited on by a model.
const bashGrace = 2 * time.Second

// pipeDrain bounds the wait for output after the command's group is gone; only a process that
// left the group (setsid) can still hold the pipe open, and it must not hold up the call.
const pipeDrain = 2 * time.Second

// sandboxHelperFailed is the helper's exit code when it could not apply the policy.
const sandboxHelperFailed = 125

// noteReserve is kept free under the output cap for the notes Bash adds (exit code, truncation).
const noteReserve = 512

type bashArgs struct {
	Command     string `json:"command"`
	Timeout     *int   `json:"timeout"`
	Description string `json:"description"`
}

func (p *Provider) callBash(ctx context.Context, raw json.RawMessage) tool.Result {
	var a bashArgs
	if err := decodeArgs(raw, &a, "command"); err != nil {
		return tool.Error("Bash: " + err.Error())
	}
	if strings.TrimSpace(a.Command) == "" {
		return tool.Error("Bash: argument \"command\" is empty")
	}
	timeoutMs := bashDefaultTimeoutMs
	if a.Timeout != nil {
		switch t := *a.Timeout; {
		case t < 1:
			return tool.Error(fmt.Sprintf("Bash: argument \"timeout\" must be at least 1 millisecond, got %d", t))
		case t > bashMaxTimeoutMs:
			return tool.Error(fmt.Sprintf("Bash: argument \"timeout\" is %d ms, over the maximum of %d ms (10 minutes); use a smaller timeout or run the work in steps", t, bashMaxTimeoutMs))
		default:
			timeoutMs = t
		}
	}
	conf := p.sbx.confinement(tool.VariantFrom(ctx))
	out, code, err := p.runShell(ctx, a.Command, time.Duration(timeoutMs)*time.Millisecond, conf)
	var (
		timeout *timeoutError
		res     tool.Result
	)
	switch {
	case errors.As(err, &timeout):
		res = tool.Error(fmt.Sprintf("%s\n[command timed out after %d ms and was killed with its process group]", orNoOutput(out), timeoutMs))
	case err != nil:
		res = tool.Error(fmt.Sprintf("%s\n[%v]", orNoOutput(out), err))
	case code != 0:
		res = tool.Error(fmt.Sprintf("%s\n[exit code %d]%s", orNoOutput(out), code, p.sbx.egressNote(deniedNote(conf, out))))
	default:
		res = tool.Text(orNoOutput(out))
	}
	res.Confinement = conf
	return res
}

func orNoOutput(s string) string {
	if s == "" {
		return "(no output)"
	}
	return s
}

// timeoutError reports that the command ran out of its own time (not the caller's).
type timeoutError struct{}

func (*timeoutError) Error() string { return "timed out" }

// runShell runs command with bash -c (sh -c when bash is missing) in the root, in its own
// process group, stdin /dev/null, stdout and stderr into one capped capture. It returns the
// captured text and the exit code; err is a *timeoutError, a cancellation, a start failure, or
// death by a signal. The group is killed on timeout or cancellation and swept after a normal
// exit, so no background child survives the call.
func (p *Provider) runShell(ctx context.Context, command string, timeout time.Duration, conf *tool.Confinement) (string, int, error) {
	shell := "/bin/sh"
	if path, err := exec.LookPath("bash"); err == nil {
		shell = path
	}
	var (
		cmd *exec.Cmd
		pr  *os.File
	)
	if conf != nil && conf.Enforced {
		sp, cleanup, err := p.sbx.start(ctx, conf, p.root.Path(), shell, command, p.env)
		if err != nil {
			return "", -1, fmt.Errorf("the sandbox could not be prepared, so the command did not run: %v", err)
		}
		defer cleanup()
		cmd, pr = sp.Cmd, sp.Out
	} else {
		cmd = exec.Command(shell, "-c", command)
		cmd.Env = p.env
		cmd.Dir = p.root.Path()
		// One pipe for both streams keeps their interleaving; passing an *os.File (not a
		// Writer) means exec copies nothing itself, so Wait returns when the shell exits even
		// when a background child still holds the pipe.
		var pw *os.File
		var err error
		if pr, pw, err = os.Pipe(); err != nil {
			return "", -1, fmt.Errorf("cannot create a pipe: %v", err)
		}
		cmd.Stdout, cmd.Stderr = pw, pw
		process.Contain(cmd, bashGrace) // setsid and double-forked children end with the call
		startErr := process.Start(cmd)
		pw.Close()
		if startErr != nil {
			pr.Close()
			return "", -1, fmt.Errorf("cannot start %s: %v", shell, startErr)
		}
	}
	defer pr.Close()
	capt := newCapture(max(p.maxOut-noteReserve, 1024))
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(capt, pr)
	}()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	werr := process.Wait(tctx, cmd, bashGrace)
	drain := time.NewTimer(pipeDrain)
	select {
	case <-copied:
	case <-drain.C:
		pr.Close() // unblocks the copy; output after this point is lost
		<-copied
	}
	drain.Stop()
	out := capt.String()
	var cancelled *process.CancelledError
	switch {
	case werr == nil:
		return out, 0, nil
	case errors.As(werr, &cancelled):
		if ctx.Err() == nil && errors.Is(werr, context.DeadlineExceeded) {
			return out, -1, &timeoutError{}
		}
		return out, -1, fmt.Errorf("command cancelled (%v); its process group was killed", context.Cause(ctx))
	}
	var exitErr *exec.ExitError
	if errors.As(werr, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return out, -1, fmt.Errorf("command killed by signal %v", ws.Signal())
		}
		if conf != nil && conf.Enforced && exitErr.ExitCode() == sandboxHelperFailed && strings.HasPrefix(out, "awf sandbox:") {
			return out, -1, fmt.Errorf("the sandbox could not be applied, so the command did not run (%s)", fault.UserSandboxDenied)
		}
		return out, exitErr.ExitCode(), nil
	}
	return out, -1, fmt.Errorf("waiting for the command failed: %v", werr)
}
