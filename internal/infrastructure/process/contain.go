package process

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/process/reaper"
)

// TokenEnv is the reserved variable that carries a contained start's token to every process
// the start spawns (see reaper.TokenEnv).
const TokenEnv = reaper.TokenEnv

// Contain makes cmd start under a reaper: a re-execution of this binary that marks itself a
// child subreaper (prctl PR_SET_CHILD_SUBREAPER), so every process
// the command starts stays beneath it even after setsid or a double fork, then runs the
// command. When the command exits, the reaper SIGKILLs whatever it left behind; on SIGTERM it
// passes SIGTERM to every descendant and SIGKILLs what is left after grace; it reaps them all
// and exits with the command's status once none remains. Each start also carries a random
// token (TokenEnv) that Sweep finds in /proc should the reaper itself be killed.
//
// Call it after setting Path, Args, Env, Dir, ExtraFiles and SysProcAttr and before Start.
// Stdin, stdout and stderr pass through unchanged. A failed exec of the command shows as the
// reaper's exit code 127 (126 for a permission or format error) with a message on stderr,
// unless the command is started with Start, which returns the exec error itself. Contain does
// nothing where the reaper cannot run (no /proc/self/exe) or when cmd already failed to resolve.
func Contain(cmd *exec.Cmd, grace time.Duration) {
	if cmd.Err != nil || Contained(cmd) || !reaper.Supported() {
		return
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	env := cmd.Environ()
	env = append(reaper.Without(env, TokenEnv, reaper.GraceEnv, reaper.FDsEnv, reaper.StatEnv),
		TokenEnv+"="+newToken(),
		reaper.GraceEnv+"="+strconv.FormatInt(grace.Milliseconds(), 10),
		reaper.FDsEnv+"="+strconv.Itoa(3+len(cmd.ExtraFiles)))
	cmd.Env = env
	cmd.Args = append([]string{reaper.Arg0, cmd.Path}, cmd.Args...)
	cmd.Path = reaper.Path
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// The reaper must outlive its tree to end it: on awf's death it gets SIGTERM, not SIGKILL.
	setPdeathsig(cmd.SysProcAttr, syscall.SIGTERM)
}

// Contained reports whether Contain prepared cmd.
func Contained(cmd *exec.Cmd) bool {
	return len(cmd.Args) > 1 && cmd.Args[0] == reaper.Arg0 && cmd.Path == reaper.Path
}

// Token returns the token of a contained cmd, or "" for one that is not contained.
func Token(cmd *exec.Cmd) string {
	if !Contained(cmd) {
		return ""
	}
	for i := len(cmd.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(cmd.Env[i], TokenEnv+"="); ok {
			return v
		}
	}
	return ""
}

// Start contains cmd with DefaultGrace unless already contained, prepares it (Prepare) and
// starts it. Unlike cmd.Start after Contain, an exec failure of the command itself (a
// missing #! interpreter, a file that is not executable) is returned as the *os.PathError
// exec.Cmd would return, once the reaper has been reaped.
func Start(cmd *exec.Cmd) error {
	Contain(cmd, DefaultGrace)
	Prepare(cmd)
	if !Contained(cmd) {
		return cmd.Start()
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	cmd.ExtraFiles = append(cmd.ExtraFiles, pw)
	cmd.Env = append(cmd.Env, reaper.StatEnv+"="+strconv.Itoa(2+len(cmd.ExtraFiles)))
	err = cmd.Start()
	pw.Close()
	cmd.ExtraFiles = cmd.ExtraFiles[:len(cmd.ExtraFiles)-1]
	if err != nil {
		return err
	}
	var buf [16]byte
	n, _ := pr.Read(buf[:])
	errno, _ := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if errno == 0 {
		return nil
	}
	_ = cmd.Wait()
	return &os.PathError{Op: "fork/exec", Path: cmd.Args[1], Err: syscall.Errno(errno)}
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Sweep SIGKILLs every process carrying token until none is left or limit has passed, and
// reports how many it signalled. It is the fallback for a reaper that was itself killed, which
// leaves its tree to the next subreaper or init; those reap the victims.
func Sweep(token string, limit time.Duration) int {
	n := 0
	deadline := time.Now().Add(limit)
	for {
		ps := reaper.WithToken(token)
		if len(ps) == 0 || time.Now().After(deadline) {
			return n
		}
		for _, p := range ps {
			if syscall.Kill(p, syscall.SIGKILL) == nil {
				n++
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// KillTree SIGKILLs the process group led by pid and, when pid is a running reaper (Contain),
// every process of its start, found by the token read from the reaper before it dies. It is for
// callers that only kept a pid: killing the reaper alone would hand its tree to init.
func KillTree(pid int) {
	if pid <= 0 {
		return
	}
	token := ""
	// Only a reaper's token is its own start's: any other process may carry the token of an
	// enclosing start (awf run from a command step), which is not this caller's to end.
	argv, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ"); err == nil && strings.HasPrefix(string(argv), reaper.Arg0+"\x00") {
		for kv := range strings.SplitSeq(string(env), "\x00") {
			if v, ok := strings.CutPrefix(kv, TokenEnv+"="); ok {
				token = v
			}
		}
	}
	_ = KillGroup(pid, syscall.SIGKILL)
	Sweep(token, time.Second)
}

// maxExitReport bounds what StartLingering reads of the reaper's report: a decimal status.
const maxExitReport = 32

// StartLingering starts cmd under a reaper (Contain, Prepare, Start) that lets the command's
// tree outlive it for linger: a process still running once the command has exited and linger
// has passed gets SIGTERM, then SIGKILL after grace, and so does every process of the tree when
// the reaper gets SIGTERM. The channel receives the command's own wait status as soon as the
// command exits, while its tree may still linger, and is closed after that or when the reaper
// ended without saying (killed). Where no reaper can run it is nil and cmd is the command.
func StartLingering(cmd *exec.Cmd, linger, grace time.Duration) (<-chan syscall.WaitStatus, error) {
	Contain(cmd, grace)
	if !Contained(cmd) {
		return nil, Start(cmd)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, pw)
	cmd.Env = append(cmd.Env, reaper.LingerEnv+"="+strconv.FormatInt(max(linger, time.Millisecond).Milliseconds(), 10),
		reaper.ExitEnv+"="+strconv.Itoa(2+len(cmd.ExtraFiles)))
	err = Start(cmd)
	pw.Close()
	cmd.ExtraFiles = cmd.ExtraFiles[:len(cmd.ExtraFiles)-1]
	if err != nil {
		pr.Close()
		return nil, err
	}
	exited := make(chan syscall.WaitStatus, 1)
	go func() {
		defer close(exited)
		defer pr.Close()
		var buf [maxExitReport]byte
		n, _ := io.ReadFull(pr, buf[:])
		if ws, err := strconv.ParseUint(strings.TrimSpace(string(buf[:n])), 10, 32); err == nil && n > 0 {
			exited <- syscall.WaitStatus(ws)
		}
	}()
	return exited, nil
}
