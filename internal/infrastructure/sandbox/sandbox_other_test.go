//go:build !linux

package sandbox

import "testing"

// Outside Linux the sandbox is reported unavailable with its reason, and nothing starts a
// helper: a Bash call must never run unconfined in place of a sandboxed one.
func TestUnavailableOutsideLinux(t *testing.T) {
	if st := Probe("/any/awf"); st.Enforced || st.ABI != 0 || st.Reason != unavailable {
		t.Errorf("Probe = %+v, want unavailable: %q", st, unavailable)
	}
	if err := KernelCan(); err == nil || err.Error() != unavailable {
		t.Errorf("KernelCan = %v", err)
	}
	if sp, err := StartSpare("/any/awf", t.TempDir(), true); sp != nil || err == nil {
		t.Errorf("StartSpare = %v, %v; want an error", sp, err)
	}
}
