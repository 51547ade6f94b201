package redact

import "encoding/binary"

// gramSet holds every MinRun-byte window of the secret values, each read as a little-endian
// uint64 (MinRun is 8 exactly so that a window is one machine word). Looking a window up is a
// multiply, a shift and usually one comparison, so scanning text costs one probe per byte
// whatever the number or length of the secrets. This finds every run of at least MinRun bytes
// whose windows all occur in some secret: every substring of a secret of that length, and, in
// theory, a run stitched from windows of different secrets, which is masked too (erring on the
// safe side).
type gramSet struct {
	keys  []uint64
	used  []bool
	shift uint
}

const gramHashMul = 0x9E3779B97F4A7C15 // 2^64 / golden ratio: Fibonacci hashing

func newGramSet(values []string) gramSet {
	total := 0
	for _, v := range values {
		if len(v) >= MinRun {
			total += len(v) - MinRun + 1
		}
	}
	if total == 0 {
		return gramSet{}
	}
	size, bits := 16, uint(4)
	for size < 2*total {
		size <<= 1
		bits++
	}
	g := gramSet{keys: make([]uint64, size), used: make([]bool, size), shift: 64 - bits}
	for _, v := range values {
		for i := 0; i+MinRun <= len(v); i++ {
			g.add(binary.LittleEndian.Uint64([]byte(v[i : i+MinRun])))
		}
	}
	return g
}

func (g *gramSet) add(k uint64) {
	mask := uint64(len(g.keys) - 1)
	for i := (k * gramHashMul) >> g.shift; ; i = (i + 1) & mask {
		if !g.used[i] {
			g.keys[i], g.used[i] = k, true
			return
		}
		if g.keys[i] == k {
			return
		}
	}
}

func (g *gramSet) has(k uint64) bool {
	mask := uint64(len(g.keys) - 1)
	for i := (k * gramHashMul) >> g.shift; g.used[i]; i = (i + 1) & mask {
		if g.keys[i] == k {
			return true
		}
	}
	return false
}

// find appends the runs of s made of secret windows, merged, to out.
func (g *gramSet) find(s string, out []span) []span {
	if len(g.keys) == 0 || len(s) < MinRun {
		return out
	}
	start, end := -1, -1
	var w uint64
	for i := 0; i < len(s); i++ {
		w = w>>8 | uint64(s[i])<<56 // the window s[i-7:i+1], little-endian
		if i < MinRun-1 || !g.has(w) {
			continue
		}
		ws := i - MinRun + 1
		if ws <= end {
			end = i + 1
			continue
		}
		if start >= 0 {
			out = append(out, span{start, end, Mask})
		}
		start, end = ws, i+1
	}
	if start >= 0 {
		out = append(out, span{start, end, Mask})
	}
	return out
}
