package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/confine"
)

// Spare is a helper started before its call is known: already in its namespaces, its Go
// runtime up, blocked reading its call. Starting a Go binary is most of the sandbox's cost per
// call (on the reference machine about 10 of its 16 ms, where a page fault costs some 30 µs),
// so a Bash tool keeps one spare ready and the call only pays for the mounts, Landlock and the
// extra process. Each spare serves one call, in namespaces of its own, exactly as a helper
// started for the call would: nothing is shared between calls.
type Spare struct {
	// Cmd is the started helper: wait for it (process.Wait) after Send.
	Cmd *exec.Cmd
	// Out is the read end of the one pipe holding the helper's and the command's stdout and
	// stderr; the caller reads and closes it.
	Out     *os.File
	req     *os.File
	network bool
}

// StartSpare starts a spare of the helper in self (from the descriptor pinned for that path,
// never the path itself), in dir, in its own process group, with the network namespace a
// policy with network set as given needs. The helper's own environment
// holds nothing of the caller's (the command's comes with its call), only GOMAXPROCS=1: the
// helper runs one thread and a signal relay, and a runtime sized for every core makes its exit,
// which the call waits for, slower (about 0.7 ms per call on the reference machine).
func StartSpare(self, dir string, network bool) (*Spare, error) {
	exe, err := pinned(self)
	if err != nil {
		return nil, err
	}
	args := []string{self, HelperArg, confine.ArgAwait, confine.ArgMapIDs, strconv.Itoa(os.Getuid()), strconv.Itoa(os.Getgid())}
	if !network {
		args = append(args, "-no-network")
	}
	cmd := &exec.Cmd{Path: "/proc/self/fd/" + strconv.Itoa(exeFD), Args: args}
	cmd.Env = []string{"GOMAXPROCS=1"}
	cmd.Dir = dir
	cmd.SysProcAttr = namespaces(network)
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("cannot create the helper's request pipe: %v", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("cannot create the helper's output pipe: %v", err)
	}
	cmd.Stdout, cmd.Stderr = outW, outW
	cmd.ExtraFiles = []*os.File{reqR, exe} // descriptors 3 and exeFD
	process.Prepare(cmd)
	err = cmd.Start()
	reqR.Close()
	outW.Close()
	if err != nil {
		reqW.Close()
		outR.Close()
		return nil, fmt.Errorf("cannot start the sandbox helper %s: %v", self, err)
	}
	return &Spare{Cmd: cmd, Out: outR, req: reqW, network: network}, nil
}

// Send gives the spare its call: the policy, the command and the command's environment. An
// error means the spare did not take the call (it died, or the policy needs other namespaces);
// Discard it then. A policy whose Hidden is nil hides the default set (HiddenPaths, less its
// Readable); an empty one hides nothing.
func (s *Spare) Send(pol Policy, argv, env []string) error {
	if pol.Hidden == nil {
		pol.Hidden = hiddenFor(pol)
	}
	if pol.Network != s.network {
		return errors.New("the spare was started with another network setting")
	}
	if s.req == nil {
		return errors.New("the spare was already sent its call")
	}
	_, err := s.req.Write(confine.EncodeRequest(pol.Args(argv), env))
	cerr := s.req.Close()
	s.req = nil
	if err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot send the call to the sandbox helper: %v", err)
	}
	return nil
}

// Discard kills a spare that will not serve a call and reaps it.
func (s *Spare) Discard() {
	if s.req != nil {
		s.req.Close()
		s.req = nil
	}
	_ = process.KillGroup(s.Cmd.Process.Pid, syscall.SIGKILL)
	_ = s.Cmd.Wait()
	s.Out.Close()
}
