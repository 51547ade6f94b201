package builtins

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"

	"github.com/awf-dev/awf/tests/testkit"
)

// BenchmarkBashTrue measures one Bash call of `true` through the Provider, unsandboxed and
// sandboxed, side by side: each round runs every variant once, in turn, so a load change hits
// them alike (the machine's load moves single runs by 40 % and more). It reports each variant's
// p50 and the p50 of the per-round difference to the plain call, with p25 and p75 as the
// spread; the target is a difference of at most 5 ms.
//
// Calls are thinkTime apart, as an agent's are (each waits for a model's answer): a sandboxed
// call is served by the spare helper prepared after the previous one, so what it costs is the
// confinement and one more process, not a Go start-up. Back to back, with no pause, each call
// would wait for its spare and the difference is about the whole start-up again (+15 ms on the
// reference machine, where a page fault costs some 30 µs); so is a step's first Bash call.
//
// The helper is AWF_SANDBOX_SELF when set, else awf-serve built as `make build` builds it
// (static, stripped) into a temp directory: the helper is the binary serving the step, which is
// awf-serve for a step without plugin tools (set AWF_SANDBOX_SELF=bin/awf for the others). The
// test binary would serve, but it is a cgo, debug-info binary of another size, and what is
// measured must be what users run.
func BenchmarkBashTrue(b *testing.B) {
	self := benchHelper(b)
	sandboxtest.Require(b, self)
	variants := []struct {
		name string
		sbx  *SandboxOptions
	}{
		{"plain", nil},
		{"read", &SandboxOptions{Settings: sandbox.DefaultSettings(), Self: self, Allow: []tool.Variant{tool.VariantRead}}},
		{"write-nonet", &SandboxOptions{Settings: sandbox.Settings{Mode: sandbox.ModeAuto}, Self: self, Allow: []tool.Variant{tool.VariantWrite}}},
	}
	providers := make([]*Provider, len(variants))
	for i, v := range variants {
		p, err := New(Options{Root: b.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}, Sandbox: v.sbx})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		providers[i] = p
	}
	args, _ := json.Marshal(map[string]any{"command": "true"})
	lat := make([][]time.Duration, len(variants))
	for b.Loop() {
		for i, p := range providers {
			time.Sleep(thinkTime)
			start := time.Now()
			res, err := p.CallTool(context.Background(), "Bash", args)
			lat[i] = append(lat[i], time.Since(start))
			if err != nil || res.IsError {
				b.Fatal(variants[i].name, err, res.JoinedText())
			}
		}
	}
	for i, v := range variants {
		b.ReportMetric(ms(testkit.Quantile(lat[i], .5)), v.name+"-p50-ms")
		if i == 0 {
			continue
		}
		diff := make([]time.Duration, len(lat[i]))
		for r := range diff {
			diff[r] = lat[i][r] - lat[0][r]
		}
		b.ReportMetric(ms(testkit.Quantile(diff, .5)), v.name+"-minus-plain-p50-ms")
		b.Logf("%s: p50 %.2f ms (plain %.2f); per-round difference p25 %+.2f p50 %+.2f p75 %+.2f ms over %d rounds",
			v.name, ms(testkit.Quantile(lat[i], .5)), ms(testkit.Quantile(lat[0], .5)), ms(testkit.Quantile(diff, .25)), ms(testkit.Quantile(diff, .5)), ms(testkit.Quantile(diff, .75)), len(diff))
	}
}

// benchHelper is the helper binary the benchmark confines with.
// thinkTime is the pause before each call: less than any model takes to answer, more than a
// spare helper needs to start.
const thinkTime = 50 * time.Millisecond

func benchHelper(b *testing.B) string {
	if self := os.Getenv("AWF_SANDBOX_SELF"); self != "" {
		return self
	}
	out := filepath.Join(b.TempDir(), "awf-serve")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "github.com/awf-dev/awf/cmd/awf-serve")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("cannot build awf-serve for the helper: %v %s", err, msg)
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
