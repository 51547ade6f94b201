package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
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
