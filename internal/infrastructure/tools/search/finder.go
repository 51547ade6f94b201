package search

import (
	"bytes"
	"strings"
)

// litFinder finds the next occurrence of any of a few literals. Exact literals use bytes.Index
// (SIMD); case-folded ones scan for both cases of their rarest byte with bytes.IndexByte and
// verify the rest. Per-literal positions are cached between calls, so a rare literal is not
// rescanned for every hit of a frequent one. A finder is stateful: one per goroutine (clone).
type litFinder struct {
	lits   [][]byte
	fold   bool
	anchor []int  // fold: index in the literal of the byte scanned for
	lo, up []byte // fold: that byte in lower and upper case
	next1  []int  // cached next hit per literal: -2 unknown, -1 none left
	nextLo []int  // fold: cached next position of lo / up
	nextUp []int
}

func newLitFinder(lits []string, fold bool) *litFinder {
	f := &litFinder{fold: fold}
	for _, l := range lits {
		f.lits = append(f.lits, []byte(l))
	}
	if fold {
		for _, l := range f.lits {
			j := rarestByte(l)
			f.anchor = append(f.anchor, j)
			f.lo = append(f.lo, toLower(l[j]))
			f.up = append(f.up, toUpper(l[j]))
		}
	}
	n := len(f.lits)
	f.next1, f.nextLo, f.nextUp = make([]int, n), make([]int, n), make([]int, n)
	f.reset()
	return f
}

// clone returns a finder with the same literals and its own cache.
func (f *litFinder) clone() *litFinder {
	if f == nil {
		return nil
	}
	c := *f
	n := len(f.lits)
	c.next1, c.nextLo, c.nextUp = make([]int, n), make([]int, n), make([]int, n)
	c.reset()
	return &c
}

// reset forgets cached positions; call it before searching a new buffer.
func (f *litFinder) reset() {
	for i := range f.next1 {
		f.next1[i], f.nextLo[i], f.nextUp[i] = -2, -2, -2
	}
}

// next returns the smallest index >= from where one of the literals starts, or -1.
func (f *litFinder) next(buf []byte, from int) int {
	if len(f.lits) == 1 && !f.fold {
		if i := bytes.Index(buf[from:], f.lits[0]); i >= 0 {
			return from + i
		}
		return -1
	}
	best := -1
	for i := range f.lits {
		c := f.next1[i]
		if c == -1 {
			continue
		}
		if c < from {
			if f.fold {
				c = f.foldIndex(buf, from, i)
			} else if k := bytes.Index(buf[from:], f.lits[i]); k >= 0 {
				c = from + k
			} else {
				c = -1
			}
			f.next1[i] = c
		}
		if c >= 0 && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

// foldIndex finds literal i at or after from, ignoring ASCII case.
func (f *litFinder) foldIndex(buf []byte, from, i int) int {
	lit, j := f.lits[i], f.anchor[i]
	for p := from + j; p < len(buf); {
		a := f.scan(buf, p, f.lo[i], &f.nextLo[i])
		b := a
		if f.up[i] != f.lo[i] {
			b = f.scan(buf, p, f.up[i], &f.nextUp[i])
		}
		c := a
		if c < 0 || (b >= 0 && b < c) {
			c = b
		}
		if c < 0 {
			return -1
		}
		if s := c - j; s+len(lit) <= len(buf) && equalFoldASCII(buf[s:s+len(lit)], lit) {
			return s
		}
		p = c + 1
	}
	return -1
}

// scan returns the next position >= p of byte b, using and updating the cache.
func (f *litFinder) scan(buf []byte, p int, b byte, cache *int) int {
	if *cache == -1 || *cache >= p {
		return *cache
	}
	if k := bytes.IndexByte(buf[p:], b); k >= 0 {
		*cache = p + k
	} else {
		*cache = -1
	}
	return *cache
}

func equalFoldASCII(a, b []byte) bool {
	for i := range a {
		if a[i] != b[i] && toLower(a[i]) != toLower(b[i]) {
			return false
		}
	}
	return true
}

func toLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func toUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// commonBytes lists bytes from most to least frequent in source code and prose; a byte absent
// from it counts as rare.
const commonBytes = " e\tt\nainorslcdpumf.()_,=hg;\"b:v/y'-w{}k*x0>1[]<2&jzq#$+!3@%|4\\5~9876`?^"

// rarestByte picks the position in lit whose byte (in either case) is least frequent.
func rarestByte(lit []byte) int {
	best, bestRank := 0, -1
	for i, c := range lit {
		r := rank(toLower(c))
		if u := rank(toUpper(c)); u < r {
			r = u
		}
		if r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// rank is larger for rarer bytes.
func rank(c byte) int {
	if i := strings.IndexByte(commonBytes, c); i >= 0 {
		return i
	}
	return len(commonBytes)
}
