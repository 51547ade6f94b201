package confine

import "errors"

// Policies, one per tool variant.
const (
	PolicyRead        = "read"        // no writes but /dev/null and the private temp directory
	PolicyWrite       = "write"       // writes under the root, the temp directory and writable
	PolicyDestructive = "destructive" // as write: the kernel cannot tell deleting from writing
)

// Policy is everything the helper applies to one call.
type Policy struct {
	Policy    string   // PolicyRead, PolicyWrite or PolicyDestructive
	Root      string   // the step's root: writable under write/destructive
	TmpDir    string   // the call's private temp directory: always writable
	Writable  []string // extra writable paths under write/destructive
	Protected []string // never writable, whatever the policy
	Hidden    []string // covered by an empty read-only directory or file, when they exist
	Network   bool     // false: a network namespace with no interface up, no unix sockets
	// Proxy is the host's egress proxy socket, reached from the sandbox only through the
	// helper's forwarders on the namespace's loopback (egress_linux.go); it needs Network false.
	Proxy string
	Probe bool // apply everything, then exit 0 without a command
	// Readable are hidden paths the call may read all the same (a step's sandbox.readable).
	// They stay with the caller: package sandbox leaves them out of Hidden, which is what the
	// helper receives.
	Readable []string
}

// The policy travels as arguments, one value per argument, so paths need no escaping (an
// argument cannot hold a NUL, nor can a path) and the helper needs no JSON decoder, whose
// package initialisation would come before this one's.
const (
	argPolicy    = "-policy"
	argRoot      = "-root"
	argTmp       = "-tmp"
	argWritable  = "-writable"
	argProtected = "-protected"
	argHide      = "-hide"
	argNoNetwork = "-no-network"
	argProxy     = "-egress-proxy"
	argProbe     = "-probe"
	argEnd       = "--"
)

// Args are the helper's arguments for p followed by the command: what comes after HelperArg.
func (p Policy) Args(command []string) []string {
	out := []string{argPolicy, p.Policy, argRoot, p.Root, argTmp, p.TmpDir}
	for _, w := range p.Writable {
		out = append(out, argWritable, w)
	}
	for _, w := range p.Protected {
		out = append(out, argProtected, w)
	}
	for _, h := range p.Hidden {
		out = append(out, argHide, h)
	}
	if !p.Network {
		out = append(out, argNoNetwork)
	}
	if p.Proxy != "" {
		out = append(out, argProxy, p.Proxy)
	}
	if p.Probe {
		out = append(out, argProbe)
	}
	out = append(out, argEnd)
	return append(out, command...)
}

// ParseArgs reads what Args wrote, strictly: an unknown option, a missing value, an unknown
// policy or a policy without root or temp directory is an error.
func ParseArgs(args []string) (Policy, []string, error) {
	p := Policy{Network: true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case argEnd:
			return p, args[i+1:], p.check()
		case argNoNetwork:
			p.Network = false
			continue
		case argProbe:
			p.Probe = true
			continue
		case argPolicy, argRoot, argTmp, argWritable, argProtected, argHide, argProxy:
		default:
			return p, nil, errors.New("unknown helper option " + a)
		}
		if i+1 >= len(args) {
			return p, nil, errors.New("helper option " + a + " needs a value")
		}
		i++
		switch v := args[i]; a {
		case argPolicy:
			p.Policy = v
		case argRoot:
			p.Root = v
		case argTmp:
			p.TmpDir = v
		case argWritable:
			p.Writable = append(p.Writable, v)
		case argProtected:
			p.Protected = append(p.Protected, v)
		case argHide:
			p.Hidden = append(p.Hidden, v)
		case argProxy:
			p.Proxy = v
		}
	}
	return p, nil, errors.New("no -- before the command")
}

func (p Policy) check() error {
	switch p.Policy {
	case PolicyRead, PolicyWrite, PolicyDestructive:
	default:
		return errors.New("unknown policy " + quote(p.Policy))
	}
	if p.TmpDir == "" || p.Root == "" {
		return errors.New("policy without root or temp directory")
	}
	if p.Proxy != "" && p.Network {
		return errors.New("an egress proxy needs a namespace without network")
	}
	return nil
}

// writablePaths are the paths a call under p may write: its temp directory, and under write and
// destructive the root and the extra writable paths.
func (p Policy) writablePaths() []string {
	out := []string{p.TmpDir}
	if p.Policy != PolicyRead {
		out = append(out, p.Root)
		out = append(out, p.Writable...)
	}
	return out
}

func quote(s string) string { return `"` + s + `"` }
