package tools

import (
	"fmt"
	"strings"
)

// closest returns the candidate nearest to name, or "" when none is near enough to be a likely
// typo. A case-insensitive match always wins ("read" → "Read").
func closest(name string, candidates []string) string {
	lower := strings.ToLower(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		if strings.ToLower(c) == lower {
			return c
		}
		d := editDistance(lower, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(2, len([]rune(name))/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counted in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
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
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// maxListed caps how many names an error message lists, so a router with many plugin tools does
// not answer a typo with a wall of text.
const maxListed = 40

// listNames joins names for a message, eliding the tail of a long list.
func listNames(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, … and %d more", strings.Join(names[:maxListed], ", "), len(names)-maxListed)
}
