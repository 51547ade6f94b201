package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// BenchmarkGlobGo times Glob "**/*.go" (newest first, so every match is stat'ed) over the GOROOT
// copy, and after each run (outside the timer) `rg --files` and `find -name '*.go'` over the
// same tree: "x-rg-files" and "x-find" are the ratios of the summed wall times, interleaved so
// that the load of a shared machine falls on both sides alike. rg --files lists every file
// unsorted, find does no stat beyond the walk: both are the floor a listing can reach.
func BenchmarkGlobGo(b *testing.B) {
	dir := gorootSrcCopy(b)
	p, err := New(Options{Root: dir, MaxOutputBytes: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"pattern": "**/*.go"})
	rg, rgErr := exec.LookPath("rg")
	var ours, rgTime, findTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := p.CallTool(context.Background(), "Glob", args)
		ours += time.Since(start)
		if err != nil || res.IsError || !strings.Contains(res.JoinedText(), ".go\n") {
			b.Fatalf("glob failed: %v %s", err, res.JoinedText())
		}
		b.StopTimer()
		if rgErr == nil {
			rgTime += timeCmd(b, rg, "--files", "--hidden", "--no-require-git", "--glob", "!.git", dir)
		}
		findTime += timeCmd(b, "find", dir, "-name", "*.go")
		b.StartTimer()
	}
	if rgTime > 0 {
		b.ReportMetric(float64(ours)/float64(rgTime), "x-rg-files")
	}
	b.ReportMetric(float64(ours)/float64(findTime), "x-find")
}

// timeCmd runs a command to completion, its output discarded, and returns its wall time.
func timeCmd(tb testing.TB, name string, args ...string) time.Duration {
	tb.Helper()
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return time.Since(start)
}
