// Package sandboxtest decides, for every test that needs the Bash sandbox, whether it runs,
// skips or fails: a test may skip only where the kernel cannot sandbox, never where it can
// and the helper does not (a broken helper must fail its tests), and never at all under
// AWF_REQUIRE_SANDBOX=1, which .ci/run sets where the kernel can. CI runs these tests as root
// and as an unprivileged user, so both answers are checked on every run.
package sandboxtest

import (
	"os"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// RequireEnv is the variable that turns every would-be skip into a failure.
const RequireEnv = "AWF_REQUIRE_SANDBOX"

// Require returns the helper's probe of self when it enforces the sandbox. It skips t where
// the kernel cannot sandbox, unless AWF_REQUIRE_SANDBOX=1, and fails t where the kernel can and
// the probe does not enforce.
func Require(t testing.TB, self string) sandbox.Status {
	t.Helper()
	if err := sandbox.KernelCan(); err != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1, yet the kernel cannot sandbox here: %v", RequireEnv, err)
		}
		t.Skipf("the kernel cannot sandbox here: %v", err)
	}
	st := sandbox.Probe(self)
	if !st.Enforced || st.ABI != sandbox.ABI() || st.Reason != "" {
		t.Fatalf("the kernel can sandbox (uid %d), yet the helper %s gave %+v", os.Getuid(), self, st)
	}
	return st
}
