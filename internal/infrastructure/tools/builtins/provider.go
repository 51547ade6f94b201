// Package builtins serves awf's six core tools — Read, Write, Edit, Bash, Glob and Grep — with
// the argument names and behaviour of Claude Code's native tools, so that a model trained on
// those tools uses awf's without surprise (docs/design.md#the-mcp-proxy). Every file tool is confined to one root
// directory with symlinks resolved; every output is capped well below what agent CLIs accept in
// one MCP message; arguments are decoded strictly so a wrong type is an error the model can read,
// never a silently ignored value (docs/design.md#pitfalls).
package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// DefaultMaxOutputBytes caps a tool's text output. Claude Code drops the MCP connection near
// 20 MB and codex fails past 16 MiB; 256 KiB leaves a wide margin and is still more than a model
// can use in one turn.
const DefaultMaxOutputBytes = 256 << 10

// Options configure a Provider.
type Options struct {
	// Root is the directory every file tool is confined to and Bash runs in. It must exist; a
	// relative root is made absolute, and symlinks in it are resolved once at New.
	Root string
	// Env is Bash's environment. nil means ScrubEnv(os.Environ()): the server's own environment
	// minus the agent CLI's credentials. An empty non-nil slice means an empty environment.
	Env []string
	// Protected lists further absolute paths Write and Edit refuse (plugin commands, private
	// files of the run); .awf/, .git/hooks/ and .git/config below the root always are.
	Protected []string
	// Sandbox confines Bash with the kernel (docs/decisions/0012-kernel-sandbox.md); nil runs Bash unconfined.
	Sandbox *SandboxOptions
	// MaxOutputBytes caps the text of any single result; 0 means DefaultMaxOutputBytes.
	MaxOutputBytes int
	// Workers is how many goroutines Grep and Glob walk a tree with; 0 means the process's
	// GOMAXPROCS as New runs. A server that narrows its Ps between calls passes the count it
	// started with, so that a search begun narrow still walks with every worker.
	Workers int
	// FanOut, when set, is called as a tool whose definition fans out (Grep, Glob) starts, and
	// what it returns as the call ends: a server that narrows its CPUs between calls widens them
	// for it. It is called with the tool's own name whatever name the agent used (split mode's
	// call_tool_read reaches Grep here too).
	FanOut func() (end func())
}

// Provider serves the built-in tools. It is safe for concurrent use; Close cancels calls in
// flight (killing Bash process groups) and refuses new ones.
type Provider struct {
	root      *rootfs.Root
	protected []string
	// gitProtected is the sandbox's set of paths git runs or reads outside any sandbox (every
	// repository's hooks and config, core.hooksPath directories), walked on the first write.
	gitProtected func() []string
	hidden       func() []string // hiddenPaths
	sbx          *bashSandbox
	env          []string
	maxOut       int
	workers      int
	fanOut       func() (end func())
	defs         []tool.Definition
	closeMu      sync.Mutex
	closed       bool
	stop         context.Context
	cancel       context.CancelFunc
}

var _ ports.ToolProvider = (*Provider)(nil)

// New checks the options and returns a ready Provider.
func New(opts Options) (*Provider, error) {
	if opts.Root == "" {
		return nil, fault.New(fault.UserBuiltinsNoRoot, "no root directory given for the built-in tools").
			WithHint("set the step's root directory")
	}
	abs, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserBuiltinsBadRoot, "cannot make root %q absolute", opts.Root)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserBuiltinsBadRoot, "root %q cannot be resolved", abs).
			WithHint("create the directory or point the step at an existing one")
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return nil, fault.New(fault.UserBuiltinsBadRoot, "root %q is not a directory", abs)
	}
	if opts.MaxOutputBytes < 0 {
		return nil, fault.New(fault.UserBuiltinsBadOption, "MaxOutputBytes is negative (%d)", opts.MaxOutputBytes)
	}
	if opts.Workers < 0 {
		return nil, fault.New(fault.UserBuiltinsBadOption, "Workers is negative (%d)", opts.Workers)
	}
	workers := opts.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	maxOut := opts.MaxOutputBytes
	if maxOut == 0 {
		maxOut = DefaultMaxOutputBytes
	}
	env := opts.Env
	if env == nil {
		env = ScrubEnv(os.Environ())
	}
	sbx, err := newBashSandbox(opts.Sandbox, real, opts.Protected)
	if err != nil {
		return nil, err
	}
	root, err := rootfs.Open(real)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserBuiltinsBadRoot, "root %q cannot be opened", abs)
	}
	stop, cancel := context.WithCancel(context.Background())
	return &Provider{
		root:         root,
		protected:    rootfs.ResolveAll(withHelper(opts.Protected, sbx.helperPath())),
		gitProtected: sync.OnceValue(func() []string { return sandbox.ProtectedPaths(real, nil) }),
		hidden:       hiddenPaths(real, opts.Sandbox),
		sbx:          sbx,
		env:          append([]string(nil), env...),
		maxOut:       maxOut,
		workers:      workers,
		fanOut:       opts.FanOut,
		defs:         withSandbox(definitions(), sbx),
		stop:         stop,
		cancel:       cancel,
	}, nil
}

// Root returns the resolved root directory the tools are confined to.
func (p *Provider) Root() string { return p.root.Path() }

// ListTools returns the six definitions. The slice is a copy; callers may keep it.
func (p *Provider) ListTools(context.Context) ([]tool.Definition, error) {
	out := make([]tool.Definition, len(p.defs))
	copy(out, p.defs)
	return out, nil
}

// handler runs one tool with raw arguments; it returns a Result, IsError for tool failures.
type handler func(p *Provider, ctx context.Context, args json.RawMessage) tool.Result

// handlerOf is the handler of a tool name. A switch rather than a map: a map literal is code run
// at every start of every step's server (the docs/decisions/0015-performance-at-the-floor.md cold start).
func handlerOf(name string) (handler, bool) {
	switch name {
	case "Read":
		return (*Provider).callRead, true
	case "Write":
		return (*Provider).callWrite, true
	case "Edit":
		return (*Provider).callEdit, true
	case "Bash":
		return (*Provider).callBash, true
	case "Glob":
		return (*Provider).callGlob, true
	case "Grep":
		return (*Provider).callGrep, true
	}
	return nil, false
}

// CallTool runs the named tool. A tool that ran and failed (bad arguments included) returns a
// Result with IsError; an error is returned only for a name this provider does not serve or a
// closed provider, which means the router sent the call to the wrong place.
func (p *Provider) CallTool(ctx context.Context, name string, args json.RawMessage) (res tool.Result, err error) {
	h, ok := handlerOf(name)
	if !ok {
		return tool.Result{}, fault.New(fault.SystemBuiltinsUnknownTool, "the built-in provider has no tool %q", name).
			WithHint("built-in tools are Read, Write, Edit, Bash, Glob and Grep")
	}
	p.closeMu.Lock()
	closed := p.closed
	p.closeMu.Unlock()
	if closed {
		return tool.Result{}, fault.New(fault.SystemBuiltinsClosed, "the built-in tool provider is closed")
	}
	if p.fanOut != nil && p.fansOut(name) {
		defer p.fanOut()()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopAfter := context.AfterFunc(p.stop, cancel)
	defer stopAfter()
	defer func() {
		// A panic here is a bug, but it must cost one call, not the agent's whole session.
		if r := recover(); r != nil {
			res = tool.Error(fmt.Sprintf("internal error in %s: %v (please report this bug)\n%s", name, r, debug.Stack()))
			err = nil
		}
	}()
	return h(p, ctx, args), nil
}

// fansOut reports whether the definition of the tool name says it fans out.
func (p *Provider) fansOut(name string) bool {
	for i := range p.defs {
		if p.defs[i].Name == name {
			return p.defs[i].FansOut
		}
	}
	return false
}

// Close cancels calls in flight and refuses new ones. It is idempotent.
func (p *Provider) Close() error {
	p.closeMu.Lock()
	first := !p.closed
	p.closed = true
	p.closeMu.Unlock()
	p.cancel()
	if first {
		// Calls in flight may still hold the root: they fail cleanly on a closed root.
		p.root.Close()
		p.sbx.close()
	}
	return nil
}

// writeProtected is what Write and Edit refuse beyond the names rootfs knows: the same set the
// sandbox keeps Bash from changing, so no tool can plant what git runs later.
func (p *Provider) writeProtected() []string {
	if p.gitProtected == nil {
		return p.protected
	}
	return append(slices.Clip(p.protected), p.gitProtected()...)
}
