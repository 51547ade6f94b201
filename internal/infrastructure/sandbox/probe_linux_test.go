package sandbox

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// auto's warning names what failed: the helper's own message, else how it ended, and when the
// namespaces cannot be made, the kernel settings that decide it.
func TestProbeReasons(t *testing.T) {
	if got := probeFailure("/bin/awf", errors.New("exit status 125"), []byte("awf sandbox: cannot pin /r/.git: EPERM\n")); got != "awf sandbox: cannot pin /r/.git: EPERM" {
		t.Errorf("with a message: %q", got)
	}
	if got := probeFailure("/bin/awf", errors.New("signal: killed"), nil); got != "the sandbox helper /bin/awf ended without a message: signal: killed" {
		t.Errorf("without: %q", got)
	}
	if _, err := os.Stat("/proc/sys/user/max_user_namespaces"); err == nil && !strings.Contains(kernelSettings(), "user.max_user_namespaces=") {
		t.Errorf("kernel settings: %q", kernelSettings())
	}
}
