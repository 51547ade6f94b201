package builtins

import (
	"errors"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// hiddenPaths is what Read, Grep and Glob refuse: what the Bash sandbox hides
// (sandbox.HiddenPaths: credential stores, agent sockets, awf's run directories, whose
// state.json keeps earlier runs' inputs and outputs in clear), less the step's
// sandbox.readable, so that no tool hands the model what Bash cannot read. Computed on the
// first call, not at start-up, which is on every step's path.
func hiddenPaths(root string, o *SandboxOptions) func() []string {
	var readable []string
	if o != nil {
		readable = o.Settings.Readable
	}
	return sync.OnceValue(func() []string { return sandbox.HiddenPaths(root, nil, readable) })
}

// refuseHidden is the error for a path (absolute, resolved) that is hidden, nil for others.
func (p *Provider) refuseHidden(path string) error {
	if p.hidden != nil && sandbox.Protects(p.hidden(), path) {
		return errors.New(path + " is hidden from awf's tools (credentials and awf's run records); a step that needs it names it in mcp_proxy.sandbox.readable")
	}
	return nil
}

// hiddenInRoot is the filter a tree search applies as it walks: nil (no cost per entry) unless
// a hidden path lies inside the root, as the credential stores do when the root is the home
// directory or holds it. .awf is left out: the walk skips it by name.
func (p *Provider) hiddenInRoot() func(abs string) bool {
	if p.hidden == nil {
		return nil
	}
	root := p.root.Path()
	var inside []string
	for _, h := range p.hidden() {
		h = strings.TrimSuffix(h, "/")
		if strings.HasPrefix(h, root+"/") && !strings.HasPrefix(h, root+"/.awf") {
			inside = append(inside, h)
		}
	}
	if len(inside) == 0 {
		return nil
	}
	return func(abs string) bool { return sandbox.Protects(inside, abs) }
}
