package builtins

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/egressproxy"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// SandboxOptions confine every Bash call with what the kernel enforces (docs/decisions/0012-kernel-sandbox.md).
type SandboxOptions struct {
	// Settings are the step's mcp_proxy.sandbox block.
	Settings sandbox.Settings
	// Self is the binary holding the helper (awf itself); "" means os.Executable.
	Self string
	// Allow is the step's intent.allow list (nil: all three): Bash is offered as, and confined
	// to, the highest variant it contains.
	Allow []tool.Variant
	// EgressRecord receives one record per connection attempt through the egress proxy of a
	// step with Settings.Egress, with the context of the Bash call that made it.
	EgressRecord func(context.Context, egressproxy.Record)
	// EgressLookup resolves names for the egress proxy; nil uses the system's resolver. Tests
	// set it to a hosts file of their own.
	EgressLookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// bashSandbox is the Provider's sandbox state, fixed at New.
type bashSandbox struct {
	self      string
	status    sandbox.Status
	network   bool
	variant   tool.Variant // what Bash is offered as when enforced
	writable  []string
	protected []string
	readable  []string // hidden paths the step opens (sandbox.readable)
	egress    *bashEgress

	mu      sync.Mutex
	pending *spareSlot // the spare for the next call, being started or ready
	closed  bool
}

// spareSlot is a spare helper started in the background for the next call.
type spareSlot struct {
	done chan struct{}
	sp   *sandbox.Spare
	err  error
}

// newBashSandbox probes the kernel. mode required on a kernel that cannot enforce the sandbox
// is USER.SANDBOX.UNAVAILABLE; mode auto there keeps Bash as before (Warning says so).
func newBashSandbox(o *SandboxOptions, root string, protected []string) (*bashSandbox, error) {
	if o == nil || o.Settings.Mode == sandbox.ModeOff {
		return nil, nil
	}
	self := o.Self
	if self == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fault.Wrap(err, fault.UserSandboxUnavailable, "cannot find awf's own binary for the sandbox helper")
		}
		self = exe
	}
	// The helper binary is protected too: every Bash call re-executes it before any
	// confinement applies, so a call that could replace it (awf built inside the root) would
	// have the next call run its own program unconfined. So are awf and awf-serve beside it,
	// which later steps spawn and whose helper they run.
	own := []string{self}
	for _, name := range []string{"awf", "awf-serve"} {
		if p := filepath.Join(filepath.Dir(self), name); p != self {
			if _, err := os.Stat(p); err == nil {
				own = append(own, p)
			}
		}
	}
	var err error
	sb := &bashSandbox{self: self, status: sandbox.Probe(self), network: o.Settings.Network, variant: highest(o.Allow), readable: o.Settings.Readable,
		protected: sandbox.ProtectedPaths(root, append(append([]string(nil), protected...), own...))}
	if !sb.status.Enforced && o.Settings.Mode == sandbox.ModeRequired {
		return nil, fault.New(fault.UserSandboxUnavailable, "mcp_proxy.sandbox.mode is required but the kernel cannot enforce the sandbox: %s", sb.status.Reason).
			WithHint("run on Linux 5.13+ with Landlock enabled and unprivileged user namespaces allowed, or set mcp_proxy.sandbox.mode: auto")
	}
	if o.Settings.Egress != nil {
		sb.network = false
		if sb.egress, err = newBashEgress(o.Settings.Egress, egressproxy.Options{Record: o.EgressRecord, Lookup: o.EgressLookup}); err != nil {
			return nil, err
		}
	}
	for _, w := range o.Settings.Writable {
		if !filepath.IsAbs(w) {
			w = filepath.Join(root, w)
		}
		sb.writable = append(sb.writable, filepath.Clean(w))
	}
	return sb, nil
}

// highest is the most powerful variant in allow (nil allows all three).
func highest(allow []tool.Variant) tool.Variant {
	if allow == nil {
		return tool.VariantDestructive
	}
	best := tool.VariantRead
	for i, v := range tool.Variants {
		for _, a := range allow {
			if a == v && i > indexOf(best) {
				best = v
			}
		}
	}
	return best
}

func indexOf(v tool.Variant) int {
	for i, x := range tool.Variants {
		if x == v {
			return i
		}
	}
	return -1
}

// helperPath is the sandbox helper binary, which Write and Edit must refuse like the other
// protected paths; "" without a sandbox.
func (sb *bashSandbox) helperPath() string {
	if sb == nil {
		return ""
	}
	return sb.self
}

// Warning is the one line to print, log and record when the step asked for the sandbox (mode
// auto) and the kernel cannot enforce it; "" otherwise.
func (p *Provider) SandboxWarning() string {
	if p.sbx == nil || p.sbx.status.Enforced {
		return ""
	}
	if p.sbx.egress != nil {
		return "the Bash sandbox cannot be enforced here, so Bash runs unconfined as before and its network allow list is not enforced: " + p.sbx.status.Reason
	}
	return "the Bash sandbox cannot be enforced here, so Bash runs unconfined as before: " + p.sbx.status.Reason
}

// confinement is what a call under variant v gets.
func (sb *bashSandbox) confinement(v tool.Variant) *tool.Confinement {
	if sb == nil {
		return nil
	}
	if !sb.status.Enforced {
		return &tool.Confinement{ABI: sb.status.ABI, Network: true, Reason: sb.status.Reason}
	}
	if !v.Valid() {
		v = sb.variant
	}
	return &tool.Confinement{Enforced: true, ABI: sb.status.ABI, Policy: string(v), Network: sb.network}
}

// start runs a sandboxed shell in root through a spare helper and returns it. The returned
// cleanup, for after the helper is reaped, removes the call's private temp directory and starts
// the spare for the next call: after the call, not during it, so the Go start-up of the next
// helper (most of the sandbox's cost) runs while the agent thinks, not beside the command.
func (sb *bashSandbox) start(ctx context.Context, conf *tool.Confinement, root, shell, command string, env []string) (*sandbox.Spare, func(), error) {
	tmp, err := os.MkdirTemp("", "awf-bash-")
	if err != nil {
		return nil, nil, fmt.Errorf("cannot create the call's private temp directory: %v", err)
	}
	pol := sandbox.Policy{Policy: conf.Policy, Root: root, TmpDir: tmp, Network: sb.network, Protected: sb.protected, Readable: sb.readable}
	if conf.Policy != sandbox.PolicyRead {
		pol.Writable = sb.writable
	}
	argv, cenv := []string{shell, "-c", command}, sandbox.TempEnv(env, tmp)
	stopEgress := func() {}
	if sb.egress != nil {
		if pol.Proxy, stopEgress, err = sb.egress.listen(ctx); err != nil {
			_ = os.RemoveAll(tmp)
			return nil, nil, err
		}
		cenv = sandbox.ProxyEnv(cenv)
	}
	sp, err := sb.take(root)
	if err == nil && sp.Send(pol, argv, cenv) != nil {
		// A spare that died while it waited: one started now takes the call.
		sp.Discard()
		if sp, err = sandbox.StartSpare(sb.self, root, sb.network); err == nil {
			if err = sp.Send(pol, argv, cenv); err != nil {
				sp.Discard()
			}
		}
	}
	if err != nil {
		stopEgress()
		_ = os.RemoveAll(tmp)
		return nil, nil, err
	}
	return sp, func() {
		stopEgress()
		_ = os.RemoveAll(tmp)
		sb.prepare(root)
	}, nil
}

// take returns a started spare for a call in dir: the one prepared after the previous call,
// waiting for it to come up if need be, else one started now.
func (sb *bashSandbox) take(dir string) (*sandbox.Spare, error) {
	if sp := sb.claim(); sp != nil {
		return sp, nil
	}
	return sandbox.StartSpare(sb.self, dir, sb.network)
}

// claim takes the prepared spare, once it is up; nil when none is prepared or it failed to
// start.
func (sb *bashSandbox) claim() *sandbox.Spare {
	sb.mu.Lock()
	slot := sb.pending
	sb.pending = nil
	sb.mu.Unlock()
	if slot == nil {
		return nil
	}
	<-slot.done
	return slot.sp
}

// prepare starts, in the background, the spare the next call in dir will take, unless one is
// already there or the provider is closed.
func (sb *bashSandbox) prepare(dir string) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.closed || sb.pending != nil {
		return
	}
	next := &spareSlot{done: make(chan struct{})}
	sb.pending = next
	go func() {
		defer close(next.done)
		next.sp, next.err = sandbox.StartSpare(sb.self, dir, sb.network)
	}()
}

// close stops and reaps the spare, once it is up; no spare is started after it.
func (sb *bashSandbox) close() {
	if sb == nil {
		return
	}
	sb.mu.Lock()
	sb.closed = true
	sb.mu.Unlock()
	if sp := sb.claim(); sp != nil {
		sp.Discard()
	}
	sb.egress.close()
}

// deniedNote is the line added to a failed sandboxed call whose output shows a refused write,
// unix socket or network use: the shell's own error says what failed, this says why. A unix
// socket refused under network: false reads "Permission denied" as a refused write does, so a
// refusal on a line that names a socket or a connection (or right after a traceback's source
// line that does, as Python prints it) gets the socket's own note, not the write's.
func deniedNote(conf *tool.Confinement, out string) string {
	if conf == nil || !conf.Enforced {
		return ""
	}
	socket, write := refusals(out, conf.Network)
	note := ""
	if socket {
		note += fmt.Sprintf("\n[sandbox: this step has no network (mcp_proxy.sandbox.network: false), so the kernel refuses every unix socket too (socket(AF_UNIX) fails with \"Permission denied\"; socketpair works); a step that must reach a local daemon needs network: true (%s)]", fault.UserSandboxDenied)
	}
	if write {
		where := "the step's root, its sandbox.writable paths and $TMPDIR"
		if conf.Policy == string(tool.VariantRead) {
			where = "$TMPDIR only (this step allows read)"
		}
		note += fmt.Sprintf("\n[sandbox: the kernel denied this; a Bash call under the %s policy may write in %s, never in .awf/, .git/hooks/ or .git/config (%s)]", conf.Policy, where, fault.UserSandboxDenied)
	}
	if note == "" && !conf.Network && (strings.Contains(out, "Network is unreachable") || strings.Contains(out, "Could not resolve") || strings.Contains(out, "Temporary failure in name resolution")) {
		note = fmt.Sprintf("\n[sandbox: this step has no network (mcp_proxy.sandbox.network: false) (%s)]", fault.UserSandboxDenied)
	}
	return note
}

// refusals reads a call's output line by line: socket says a unix socket was refused (only
// without network: with it, the sandbox refuses no socket, so a "Permission denied" there is
// the file's own mode), write that a write was.
func refusals(out string, network bool) (socket, write bool) {
	prev := ""
	for line := range strings.SplitSeq(out, "\n") {
		if strings.Contains(line, "Read-only file system") {
			write = true
		} else if strings.Contains(line, "Permission denied") || strings.Contains(line, "Operation not permitted") {
			switch {
			case !names(line, socketWords...) && !(traceback(prev) && names(prev, socketWords...)):
				write = true
			case !network:
				socket = true
			}
		}
		prev = line
	}
	return socket, write
}

// traceback reports whether line is the source line of a traceback (indented), which names
// the call that failed on the line after it.
func traceback(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// socketWords mark a line about a socket or a connection in the errors of common clients
// (ssh-add, docker, socat, nc, curl, Python).
var socketWords = []string{"socket", "connect", "af_unix", "unix:"}

// names reports whether line holds any of words, ignoring case.
func names(line string, words ...string) bool {
	l := strings.ToLower(line)
	for _, w := range words {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// bashDefinition is Bash as offered under an enforced sandbox: its annotations and description
// follow the variant it is confined to.
func bashDefinition(v tool.Variant) tool.Definition {
	switch v {
	case tool.VariantRead:
		d := def("Bash", "Run shell command (read-only)", bashDesc+bashReadNote, bashSchema, true, false, false, true)
		return d
	case tool.VariantWrite:
		return def("Bash", "Run shell command", bashDesc+bashWriteNote, bashSchema, false, false, false, true)
	}
	return def("Bash", "Run shell command", bashDesc+bashWriteNote, bashSchema, false, true, false, true)
}

const bashReadNote = `
- Sandboxed read-only shell: the kernel refuses every write (files, directories, renames, deletions) except in $TMPDIR, a private directory removed after the call. Use it to inspect: cat, ls, git status, git log, git diff, grep, builds that write only to $TMPDIR.`

const bashWriteNote = `
- Sandboxed: writes succeed only inside the root directory, $TMPDIR (private, removed after the call) and the step's extra writable paths; .awf/, .git/hooks/ and .git/config are read-only; $HOME and the rest of the system are not writable.`

// withSandbox replaces Bash's definition when the sandbox is enforced.
func withSandbox(defs []tool.Definition, sb *bashSandbox) []tool.Definition {
	if sb == nil || !sb.status.Enforced {
		return defs
	}
	for i := range defs {
		if defs[i].Name == "Bash" {
			defs[i] = bashDefinition(sb.variant)
		}
	}
	return defs
}

// withHelper adds the sandbox helper binary, when there is one, to the protected paths.
func withHelper(protected []string, helper string) []string {
	if helper == "" {
		return protected
	}
	return append(append([]string(nil), protected...), helper)
}
