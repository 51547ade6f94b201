package builtins

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Read benchmarks' shared parts: the file they read and the loop that compares ways of
// reading it.

// benchFile is the file the Read benchmarks read, relative to the root: three directories down,
// so that confinement has a path to walk.
const benchFile = "a/b/c/f.go"

// writeBenchFile writes benchFile (200 short lines, about 3.6 KB) under root.
func writeBenchFile(b *testing.B, root string) {
	b.Helper()
	path := filepath.Join(root, filepath.FromSlash(benchFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
}

// newBenchProvider is a Provider on root with an empty environment, closed when b ends.
func newBenchProvider(b *testing.B, root string) *Provider {
	b.Helper()
	p, err := New(Options{Root: root, Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	return p
}

// benchWay is one way of doing what a comparison measures; call does it once and fails b if
// it goes wrong.
type benchWay struct {
	name string
	call func()
}

// compareWays runs every way in turn in each round of b.Loop, 20 calls a round, so that a
// change in the machine's load hits all of them alike, and reports each way's p50 time per call
// in microseconds ("<name>-p50-us") and, for every way after the first, its ratio to the first
// ("<name>/<first name>").
func compareWays(b *testing.B, ways ...benchWay) {
	b.Helper()
	lat := make([][]time.Duration, len(ways))
	for b.Loop() {
		for i, w := range ways {
			start := time.Now()
			for range 20 {
				w.call()
			}
			lat[i] = append(lat[i], time.Since(start)/20)
		}
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	first := quantile(lat[0], .5)
	b.ReportMetric(us(first), ways[0].name+"-p50-us")
	for i, w := range ways[1:] {
		q := quantile(lat[i+1], .5)
		b.ReportMetric(us(q), w.name+"-p50-us")
		b.ReportMetric(float64(q)/float64(first), w.name+"/"+ways[0].name)
	}
}

// readVia is a way that opens the bench file with open and reads it to its end into buf.
func readVia(b *testing.B, name string, buf []byte, open func() (io.ReadCloser, error)) benchWay {
	return benchWay{name, func() {
		f, err := open()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(f, buf[:3600]); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}}
}
