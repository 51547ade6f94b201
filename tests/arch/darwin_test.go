package arch_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestDarwinBuilds keeps awf and awf-serve building for macOS, which `make dist` ships
// (PLATFORMS in the Makefile). The Bash sandbox and several process helpers are Linux-only
// (docs/decisions/0012-kernel-sandbox.md); a Linux-only name used without a counterpart for
// other systems breaks only the darwin build, which nothing else here compiles. It builds as
// `make dist` does (CGO_ENABLED=0) and runs in every mode, -short included: with a warm build
// cache it takes seconds.
func TestDarwinBuilds(t *testing.T) {
	for _, arch := range []string{"arm64", "amd64"} {
		t.Run(arch, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			// Two main packages: go build compiles and links both and discards the binaries.
			cmd := exec.CommandContext(ctx, "go", "build", "./cmd/awf", "./cmd/awf-serve")
			cmd.Dir = repoRoot()
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=darwin", "GOARCH="+arch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("GOOS=darwin GOARCH=%s go build ./cmd/awf ./cmd/awf-serve: %v\n%s", arch, err, out)
			}
		})
	}
}
