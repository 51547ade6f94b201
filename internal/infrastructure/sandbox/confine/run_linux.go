package confine

import (
	"os"
	"os/signal"
	"syscall"
)

// runAsInit runs the command as the only child of the helper, which stays PID 1 of the
// sandbox's PID namespace. The shell must not be PID 1 itself: the kernel delivers to a
// namespace's init only the signals it has handlers for, so a SIGTERM on timeout would be
// ignored and every timed-out call would wait out the grace period before SIGKILL. The
// helper forwards SIGTERM, SIGINT and SIGHUP to the command, returns its exit status
// (128+signal when a signal ended it), and its own exit tears the namespace down, killing
// whatever the command left behind. The child is forked from the locked, confined thread, so
// it inherits the Landlock domain, no_new_privs and the emptied capability sets.
//
// syscall.ForkExec, not os/exec: os.StartProcess first forks a throw-away child to test for
// pidfd support, and os/exec's imports would delay this package's initialisation.
func runAsInit(args, env []string) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	path := lookPath(args[0], env)
	pid, err := syscall.ForkExec(path, args, &syscall.ProcAttr{Env: env, Files: []uintptr{0, 1, 2}})
	if err != nil {
		os.Stderr.WriteString("awf sandbox: cannot run " + args[0] + ": " + err.Error() + "\n")
		return 127
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 127
		}
		return exitStatus(ws)
	}
}

// exitStatus is the shell's convention for a wait status: the exit code, or 128+signal.
func exitStatus(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// lookPath finds a command without a slash in env's PATH, as exec.LookPath would; a name it
// cannot find is returned as is, for ForkExec's error to name.
func lookPath(name string, env []string) string {
	if contains(name, '/') {
		return name
	}
	path := ""
	for _, kv := range env {
		if len(kv) > 5 && kv[:5] == "PATH=" {
			path = kv[5:]
		}
	}
	for _, dir := range split(path, ':') {
		if dir == "" {
			dir = "."
		}
		full := dir + "/" + name
		if st, err := os.Stat(full); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return full
		}
	}
	return name
}

func contains(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// split is strings.Split for one byte.
func split(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
