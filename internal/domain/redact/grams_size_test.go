package redact

import (
	"math/bits"
	"strings"
	"testing"
)

// The gram table is the smallest power of two at least twice the number of windows (a load of
// at most a half keeps probes short), and its hash shift indexes exactly that many slots: a
// larger table wastes memory per secret, a smaller one or a wrong shift makes every lookup a
// long probe.
func TestGramSetSize(t *testing.T) {
	for _, c := range []struct {
		lens []int
		want int
	}{
		{[]int{MinRun}, 16},                   // 1 window
		{[]int{MinRun + 7}, 16},               // 8 windows: 2*8 = 16 fits exactly
		{[]int{MinRun + 8}, 32},               // 9 windows
		{[]int{MinRun - 1, MinRun + 8}, 32},   // a value too short for a window adds none
		{[]int{MinRun + 15, MinRun + 15}, 64}, // 32 windows
	} {
		var values []string
		for i, n := range c.lens {
			values = append(values, strings.Repeat(string(rune('a'+i)), n))
		}
		g := newGramSet(values)
		if len(g.keys) != c.want || len(g.used) != c.want {
			t.Errorf("lengths %v: table of %d slots, want %d", c.lens, len(g.keys), c.want)
		}
		if want := uint(64 - bits.TrailingZeros(uint(c.want))); g.shift != want {
			t.Errorf("lengths %v: shift %d, want %d", c.lens, g.shift, want)
		}
	}
}
