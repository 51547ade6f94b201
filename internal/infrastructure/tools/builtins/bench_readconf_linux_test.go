//go:build linux

package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// BenchmarkReadConfinement measures the target directly: a small Read three directories
// below the root, confined through openat2 (what New picks on Linux), confined through os.Root
// alone (the fallback), and unconfined (readUnconfined: the same call with the open the tools
// made before os.Root), alternating in each round so a load change hits all three. It reports
// each p50 and the ratios to unconfined; the target is at most 1.05 for the confined Read.
func BenchmarkReadConfinement(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	p, err := New(Options{Root: root, Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if p.root.at == nil {
		b.Skip("openat2 is not available here: the confiner uses os.Root only")
	}
	viaRoot, err := New(Options{Root: root, Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	defer viaRoot.Close()
	viaRoot.root.at.close()
	viaRoot.root.at = nil
	args, _ := json.Marshal(map[string]any{"file_path": "a/b/c/f.go"})
	ctx := context.Background()
	round := func(read func() tool.Result) time.Duration {
		start := time.Now()
		for range 20 {
			if res := read(); res.IsError {
				b.Fatal(res.JoinedText())
			}
		}
		return time.Since(start) / 20
	}
	var plain, beneath, rooted []time.Duration
	for b.Loop() {
		plain = append(plain, round(func() tool.Result { return readUnconfined(p, ctx, args) }))
		beneath = append(beneath, round(func() tool.Result { return p.callRead(ctx, args) }))
		rooted = append(rooted, round(func() tool.Result { return viaRoot.callRead(ctx, args) }))
	}
	u := quantile(plain, .5)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	b.ReportMetric(us(u), "unconfined-p50-us")
	b.ReportMetric(us(quantile(beneath, .5)), "openat2-p50-us")
	b.ReportMetric(us(quantile(rooted, .5)), "osroot-p50-us")
	b.ReportMetric(float64(quantile(beneath, .5))/float64(u), "openat2/unconfined")
	b.ReportMetric(float64(quantile(rooted, .5))/float64(u), "osroot/unconfined")
}

// readUnconfined is callRead with the default window and the open of the tools before os.Root:
// the path joined to the root, stat so that a FIFO is not opened, open, fstat.
func readUnconfined(p *Provider, ctx context.Context, raw json.RawMessage) tool.Result {
	var a readArgs
	if err := decodeArgs(raw, &a, "file_path"); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	path := filepath.Join(p.root.root, a.FilePath)
	fi, err := os.Stat(path)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	if err := requireRegular(path, fi); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	defer f.Close()
	if fi, err = f.Stat(); err == nil {
		err = requireRegular(path, fi)
	}
	if err != nil {
		return tool.Error(fmt.Sprint("Read: ", err))
	}
	out, err := readLines(ctx, f, path, 1, readDefaultLimit, p.maxOut)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	return tool.Text(out)
}
