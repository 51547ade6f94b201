package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// memoryGoal is the docs/decisions/0015-performance-at-the-floor.md bound on mcp-serve's peak RSS, in every scenario.
const memoryGoal = 40.0

// BenchmarkServeMemory reports the peak RSS (VmHWM) of awf-serve, the server agent CLIs spawn
// for a step, in the scenarios that need the most memory: a 1 MiB Read, a whole-tree Glob, and
// eight Greps over the whole Go source tree at once (each walks it with a worker per P), each
// scenario in a fresh server, as ../shared/mcpbench measures them. The tree is GOROOT/src, read
// in place (nothing writes to it); the 1 MiB file is written to a temp root beside it.
func BenchmarkServeMemory(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	tree := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(tree); err != nil {
		b.Skipf("no GOROOT/src: %v", err)
	}
	small := b.TempDir()
	big := filepath.Join(small, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat(strings.Repeat("z", 63)+"\n", 16384)), 0o644); err != nil {
		b.Fatal(err)
	}
	type scenario struct {
		name     string
		root     string
		tool     string
		args     string
		parallel int
		want     string // in every answer: the call did its work
	}
	grep := `{"pattern":"errors\\.New","output_mode":"count"}`
	scenarios := []scenario{
		{"Read 1 MiB", small, "Read", `{"file_path":"` + big + `"}`, 1, "zzzz"},
		{"8 Reads of 1 MiB at once", small, "Read", `{"file_path":"` + big + `"}`, 8, "zzzz"},
		{"Glob **/*.go, GOROOT/src", tree, "Glob", `{"pattern":"**/*.go"}`, 1, ".go"},
		{"Grep errors.New, GOROOT/src", tree, "Grep", grep, 1, "matching lines"},
		{"8 Greps at once, GOROOT/src", tree, "Grep", grep, 8, "matching lines"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	fmt.Printf("\nawf-serve peak RSS (VmHWM) per scenario, a fresh server each; goal ≤ %.0f MiB\n\n| scenario | peak RSS | met |\n|---|---|---|\n", memoryGoal)
	worst := 0.0
	for _, sc := range scenarios {
		peak, err := servePeak(ctx, b, sc.root, sc.tool, json.RawMessage(sc.args), sc.parallel, sc.want)
		if err != nil {
			b.Fatalf("%s: %v", sc.name, err)
		}
		worst = max(worst, peak)
		met := "yes"
		if peak > memoryGoal {
			met = "no"
		}
		fmt.Printf("| %s | %.1f MiB | %s |\n", sc.name, peak, met)
	}
	fmt.Println()
	b.ReportMetric(worst, "peak-RSS-MiB")
}

// servePeak starts awf-serve over root with the step config awf writes, makes parallel calls of
// tool at once, twice, checks that every answer holds want, and returns the server's VmHWM.
func servePeak(ctx context.Context, b *testing.B, root, tool string, args json.RawMessage, parallel int, want string) (float64, error) {
	s, err := openSDK(ctx, stepServerAt(b, root).cmd())
	if err != nil {
		return 0, err
	}
	defer s.close()
	for range 2 {
		var wg sync.WaitGroup
		errs := make(chan error, parallel)
		for range parallel {
			wg.Go(func() {
				text, err := s.call(ctx, tool, args)
				if err == nil && !strings.Contains(text, want) {
					err = fmt.Errorf("%s answered %.200q", tool, text)
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return 0, err
			}
		}
	}
	return peakRSSMiB(s.pid()), nil
}
