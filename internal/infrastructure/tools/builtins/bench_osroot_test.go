package builtins

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkOSRootOpen compares what os.Root adds to a Read: opening and reading a small file
// three directories below the root through os.Root (as the file tools do) and through a plain
// os.Open of the joined path (as they did before), alternating in each round so a load change
// hits both. It reports both p50s and their ratio; the target for Read is at most 5 %
// slower, and this is the open's share of it (a whole Read call also renders the lines).
func BenchmarkOSRootOpen(b *testing.B) {
	root := b.TempDir()
	rel := filepath.Join("a", "b", "c", "f.go")
	if err := os.MkdirAll(filepath.Join(root, "a", "b", "c"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, rel), []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 8192)
	read := func(open func() (*os.File, error)) time.Duration {
		start := time.Now()
		for range 20 {
			f, err := open()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(f, buf[:3600]); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		return time.Since(start) / 20
	}
	var plain, rooted []time.Duration
	for b.Loop() {
		plain = append(plain, read(func() (*os.File, error) { return os.Open(filepath.Join(root, rel)) }))
		rooted = append(rooted, read(func() (*os.File, error) { return r.Open(rel) }))
	}
	p, q := quantile(plain, .5), quantile(rooted, .5)
	b.ReportMetric(float64(p.Nanoseconds())/1000, "plain-p50-us")
	b.ReportMetric(float64(q.Nanoseconds())/1000, "osroot-p50-us")
	b.ReportMetric(float64(q)/float64(p), "osroot/plain")
}
