// Package reaper is the process that a contained start runs in front of a command: a child
// subreaper (prctl PR_SET_CHILD_SUBREAPER) that keeps every descendant of the command below
// it, setsid and double-forked ones included, ends them all with the command, and reaps them.
// Any binary that links it can re-execute itself as the reaper: the check runs in this
// package's init, which has few dependencies so that Go initialises it before the heavy
// packages of the binary (the Go specification orders package initialisation by import path
// among the packages whose imports are done), keeping the reaper's start cheap.
package reaper

import (
	"errors"
	"os"
	ossignal "os/signal"
	"strconv"
	"syscall"
	"time"
)

// defaultGrace is used when GraceEnv does not parse.
const defaultGrace = 5 * time.Second

// The reaper takes over before main (and before a test binary's TestMain): any binary that
// links this package can serve as its own reaper, awf, awf-serve and tests alike.
func init() {
	if len(os.Args) > 2 && os.Args[0] == Arg0 && os.Getenv(GraceEnv) != "" {
		os.Exit(Main(os.Args[1], os.Args[2:]))
	}
}

// Main runs path with argv under this process as child subreaper and returns the exit code to
// leave with, after every descendant is gone.
func Main(path string, argv []string) int {
	grace := envInt(GraceEnv, int(defaultGrace.Milliseconds()))
	nfd := max(envInt(FDsEnv, 3), 3)
	statFD, exitFD := envInt(StatEnv, -1), envInt(ExitEnv, -1)
	linger := time.Duration(envInt(LingerEnv, 0)) * time.Millisecond
	for _, fd := range []int{statFD, exitFD} {
		if fd >= nfd {
			syscall.CloseOnExec(fd) // the reaper's own: the command must not hold them open
		}
	}
	env := Without(os.Environ(), GraceEnv, FDsEnv, StatEnv, LingerEnv, ExitEnv)
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	sigs := make(chan os.Signal, 4)
	ossignal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	files := make([]uintptr, nfd)
	for i := range files {
		files[i] = uintptr(i)
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Env: env, Files: files,
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}})
	reportStart(statFD, err)
	if err != nil {
		_, _ = os.Stderr.WriteString("awf: cannot start " + path + ": " + err.Error() + "\n")
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.ENOEXEC) {
			return 126
		}
		return 127
	}
	for i := 3; i < nfd; i++ {
		_ = syscall.Close(i) // the tree holds its own copies; ours must not keep pipes open
	}
	return superviseTree(pid, sigs, time.Duration(grace)*time.Millisecond, linger, exitFD)
}

// reportExit writes the command's wait status to fd, if the starter asked for it.
func reportExit(fd int, ws syscall.WaitStatus) {
	if fd < 0 {
		return
	}
	_, _ = syscall.Write(fd, []byte(strconv.FormatUint(uint64(ws), 10)+"\n"))
	_ = syscall.Close(fd)
}

// reportStart writes the exec's errno (0 for success) to fd, if the starter asked for it.
func reportStart(fd int, err error) {
	if fd < 0 {
		return
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) && err != nil {
		errno = syscall.EINVAL
	}
	_, _ = syscall.Write(fd, []byte(strconv.Itoa(int(errno))))
	_ = syscall.Close(fd)
}

// superviseTree reaps every child until none is left. The command's exit SIGKILLs the rest of
// the tree, or with linger, once linger has passed, SIGTERMs it and SIGKILLs it after grace; a
// signal to the reaper passes SIGTERM on and SIGKILLs the tree after grace. The command's
// status goes to exitFD as soon as it is known.
func superviseTree(pid int, sigs <-chan os.Signal, grace, linger time.Duration, exitFD int) int {
	cmdExit := make(chan syscall.WaitStatus, 1)
	allGone := make(chan struct{})
	go reapAll(pid, cmdExit, allGone)
	var (
		status   syscall.WaitStatus
		killing  bool
		timeout  <-chan time.Time
		lingered <-chan time.Time
	)
	startKilling := func() {
		if !killing {
			killing = true
			go killTree(allGone)
		}
	}
	terminate := func() {
		signalTree(syscall.SIGTERM)
		if timeout == nil {
			timeout = time.After(grace)
		}
	}
	for {
		select {
		case status = <-cmdExit:
			reportExit(exitFD, status)
			exitFD = -1
			if linger <= 0 {
				startKilling()
			} else {
				lingered = time.After(linger)
			}
		case <-lingered:
			terminate()
		case <-sigs:
			terminate()
		case <-timeout:
			startKilling()
		case <-allGone:
			return exitLike(finalStatus(status, cmdExit))
		}
	}
}

// reapAll waits for any child until there are none, sending the command's status on cmdExit.
// As a subreaper this process inherits every orphan of the tree, so "no child" means the tree
// is gone: a dying process's children are handed over before it can be reaped.
func reapAll(pid int, cmdExit chan<- syscall.WaitStatus, allGone chan<- struct{}) {
	defer close(allGone)
	for {
		var ws syscall.WaitStatus
		p, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return
		case p == pid:
			cmdExit <- ws
		}
	}
}

// killTree SIGKILLs every descendant until the tree is gone; it looks again after each round
// since a process may fork between the look and the kill.
func killTree(allGone <-chan struct{}) {
	wait := time.Millisecond // most trees are gone by then: no need to read /proc at all
	for {
		select {
		case <-allGone:
			return
		case <-time.After(wait):
		}
		signalTree(syscall.SIGKILL)
		wait = min(2*wait+5*time.Millisecond, 100*time.Millisecond)
	}
}

// signalTree sends sig to every descendant of this process.
func signalTree(sig syscall.Signal) {
	for _, p := range Descendants(os.Getpid()) {
		_ = syscall.Kill(p, sig)
	}
}

// exitLike returns the code for the command's status; a command killed by a common
// terminating signal is mirrored by the reaper dying of the same signal, as shells observe.
func exitLike(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	switch sig := ws.Signal(); sig {
	case syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGKILL, syscall.SIGALRM,
		syscall.SIGUSR1, syscall.SIGUSR2:
		ossignal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(100 * time.Millisecond)
	}
	return 128 + int(ws.Signal())
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// finalStatus is the command's status once the tree is gone. reapAll sends the status before
// it closes allGone, and select picks at random among ready cases, so the status may still
// wait in cmdExit: taking it there keeps a failed command from leaving with 0.
func finalStatus(status syscall.WaitStatus, cmdExit <-chan syscall.WaitStatus) syscall.WaitStatus {
	select {
	case status = <-cmdExit:
	default:
	}
	return status
}
