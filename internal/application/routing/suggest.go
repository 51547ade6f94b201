package routing

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/suggest"
)

// closest returns the candidate nearest to name, or "" when none is near enough to be a likely
// typo. It is the same did-you-mean the workflow loader uses, so hints read alike everywhere.
func closest(name string, candidates []string) string {
	return suggest.Closest(name, candidates)
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
