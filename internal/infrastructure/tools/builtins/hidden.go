package builtins

import (
	"errors"
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
