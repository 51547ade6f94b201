package sandbox

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkColdCall is a step's first Bash call as the Bash tool makes it when no spare is
// ready: the protected set of a fresh repository, a helper started in its namespaces, the
// write policy applied (pins, binds, Landlock) and `true` run. The helper is AWF_SANDBOX_SELF
// when set (bin/awf-serve, what users run), else the test binary. The target is 20 ms, with
// BenchmarkProtectedPaths for a larger tree on top.
func BenchmarkColdCall(b *testing.B) {
	self := os.Getenv("AWF_SANDBOX_SELF")
	if self == "" {
		self, _ = os.Executable()
	}
	if st := Probe(self); !st.Enforced {
		b.Skipf("sandbox unavailable: %s", st.Reason)
	}
	root, tmp := b.TempDir(), b.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Skipf("git init: %v %s", err, out)
	}
	for b.Loop() {
		pol := Policy{Policy: PolicyWrite, Root: root, TmpDir: tmp, Network: true, Protected: ProtectedPaths(root, nil)}
		sp, err := StartSpare(self, root, true)
		if err != nil {
			b.Fatal(err)
		}
		if err := sp.Send(pol, []string{"/bin/true"}, nil); err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(sp.Out)
		sp.Out.Close()
		if err := sp.Cmd.Wait(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// BenchmarkProtectedPaths is the protected set of awf's own repository (about a thousand
// entries walked for nested repositories), which the Bash tool computes once per step.
func BenchmarkProtectedPaths(b *testing.B) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if len(ProtectedPaths(root, nil)) == 0 {
			b.Fatal("empty set")
		}
	}
}
