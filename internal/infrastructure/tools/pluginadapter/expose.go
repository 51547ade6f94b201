package pluginadapter

import (
	"context"
	"path"
	"strings"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// sourcer is implemented by hosts that serve more than one kind of plugin (gRPC and MCP).
type sourcer interface {
	SourceOf(plugin string) tool.Source
}

// pinChecker is implemented by hosts that pin tools (.awf/plugins.lock): a new or changed
// exposed tool is refused before the agent sees it.
type pinChecker interface {
	CheckPins(ctx context.Context, plugin string, tools []string) error
}

// scanGate is implemented by hosts that scan tool definitions: HeldOut names the exposed
// tools kept out of the step by a high finding not accepted in .awf/plugins.lock, with why.
type scanGate interface {
	HeldOut(ctx context.Context, plugin string, tools []string) (map[string]string, error)
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// expand resolves expose entries against the listed names: an exact name stays (listed or
// not: an unlisted one is reported by the caller), a glob (`*`, `get-*`) becomes every listed
// name it matches, in listing order. A glob matching nothing is returned in unmatched. Each
// name appears once, at its first match.
func expand(expose, listed []string) (names, unmatched []string) {
	seen := map[string]bool{}
	for _, e := range expose {
		if !isGlob(e) {
			names = append(names, e) // duplicates kept: the router reports NAME_COLLISION
			seen[e] = true
			continue
		}
		matched := false
		for _, l := range listed {
			if ok, _ := path.Match(e, l); ok {
				matched = true
				if !seen[l] {
					seen[l] = true
					names = append(names, l)
				}
			}
		}
		if !matched {
			unmatched = append(unmatched, e)
		}
	}
	return names, unmatched
}
