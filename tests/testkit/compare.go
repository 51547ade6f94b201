package testkit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The file-read benchmarks' shared parts (the built-in tools' Read and the confined filesystem
// under it): the file they read and the loop that compares ways of reading it.

// BenchFile is the file the Read benchmarks read, relative to the root: three directories down,
// so that confinement has a path to walk.
const BenchFile = "a/b/c/f.go"

// WriteBenchFile writes BenchFile (200 short lines, about 3.6 KB) under root.
func WriteBenchFile(b *testing.B, root string) {
	b.Helper()
	path := filepath.Join(root, filepath.FromSlash(BenchFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
}

// Way is one way of doing what a comparison measures; Call does it once and fails the
// benchmark if it goes wrong.
type Way struct {
	Name string
	Call func()
}

// CompareWays runs every way in turn in each round of b.Loop, 20 calls a round, so that a
// change in the machine's load hits all of them alike, and reports each way's p50 time per call
// in microseconds ("<name>-p50-us") and, for every way after the first, its ratio to the first
// ("<name>/<first name>").
func CompareWays(b *testing.B, ways ...Way) {
	b.Helper()
	lat := make([][]time.Duration, len(ways))
	for b.Loop() {
		for i, w := range ways {
			start := time.Now()
			for range 20 {
				w.Call()
			}
			lat[i] = append(lat[i], time.Since(start)/20)
		}
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	first := Quantile(lat[0], .5)
	b.ReportMetric(us(first), ways[0].Name+"-p50-us")
	for i, w := range ways[1:] {
		q := Quantile(lat[i+1], .5)
		b.ReportMetric(us(q), w.Name+"-p50-us")
		b.ReportMetric(float64(q)/float64(first), w.Name+"/"+ways[0].Name)
	}
}

// Quantile is the q-quantile (0 to 1) of d, by rank; d is not changed.
func Quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*q)]
}
