// Package suggest is awf's one judgement of "did you mean": every misspelt name (a state, an
// input, a key, a tool, a run id) is matched against its candidates the same way, so users get
// the same hint everywhere.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate closest to word, or "" when none is close enough to be a likely
// typo. Every "did you mean" in awf goes through it so users get the same judgement everywhere.
//
// Matching ignores case. A candidate qualifies when its Damerau-Levenshtein distance (optimal
// string alignment: insertions, deletions, substitutions and swaps of adjacent letters) is within
// a budget that grows with the word's length (1 up to 4 letters, 2 up to 8, then 3), and is less
// than the word's length so that short words do not match everything. A candidate that starts
// with a word of at least 3 letters also qualifies ("int" → "integer"). The smallest distance
// wins; ties go to the earlier candidate, so callers control the preference by ordering.
func Closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	n := utf8.RuneCountInString(w)
	if n == 0 {
		return ""
	}
	budget := 3
	switch {
	case n <= 4:
		budget = 1
	case n <= 8:
		budget = 2
	}
	best, bestDist := "", budget+1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(w, lc)
		if d >= n {
			d = budget + 1
		}
		if d > budget && n >= 3 && strings.HasPrefix(lc, w) {
			d = budget // a prefix is as good as the worst accepted typo
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the optimal-string-alignment distance between a and b, counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rolling rows: two back for transpositions, one back, current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// DidYouMean is the hint awf prints for a misspelt name: "did you mean 'x'?" when Closest finds
// a close candidate, otherwise a list of the valid names so the user never has to guess.
func DidYouMean(word string, candidates []string) string {
	if s := Closest(word, candidates); s != "" {
		return "did you mean '" + s + "'?"
	}
	if len(candidates) == 0 {
		return ""
	}
	return "valid: " + strings.Join(candidates, ", ")
}
