package egress

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// Rules are a step's parsed allow and deny lists.
type Rules struct {
	Allow []Entry
	Deny  []Entry
}

// Parse reads both lists; it returns every malformed entry's error, each naming its list.
func Parse(allow, deny []string) (Rules, []error) {
	var r Rules
	var errs []error
	for _, s := range allow {
		e, err := ParseEntry(s)
		if err != nil {
			errs = append(errs, listError{"allow", err})
			continue
		}
		r.Allow = append(r.Allow, e)
	}
	for _, s := range deny {
		e, err := ParseEntry(s)
		if err != nil {
			errs = append(errs, listError{"deny", err})
			continue
		}
		r.Deny = append(r.Deny, e)
	}
	return r, errs
}

type listError struct {
	list string
	err  error
}

func (e listError) Error() string { return "network." + e.list + ": " + e.err.Error() }
func (e listError) Unwrap() error { return e.err }

// Decision is the answer for one connection and the entry or rule that gave it.
type Decision struct {
	Allowed bool
	// Rule is the deciding entry as written (`allow *.example.com`, `deny 10.0.0.1`) or the
	// rule's name (RuleNotListed, RuleLoopback, …).
	Rule string
}

// The rules that decide when no entry does.
const (
	RuleNotListed = "not in the allow list"
	RuleBadHost   = "not a valid host name"
	RuleNoAddress = "the name has no address"
)

func allow(e Entry) Decision { return Decision{Allowed: true, Rule: "allow " + e.Raw} }
func deny(e Entry) Decision  { return Decision{Rule: "deny " + e.Raw} }

// Host is a destination as asked: a name or an IP literal, and a port.
type Host struct {
	Name string
	Port int
}

// Normal returns the host name lower-cased without a trailing dot, or an IP literal (brackets
// dropped) unmapped, and whether it is valid at all.
func (h Host) Normal() (name string, addr netip.Addr, ok bool) {
	s := strings.TrimSuffix(strings.TrimPrefix(h.Name, "["), "]")
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" {
			return "", netip.Addr{}, false
		}
		return "", a.Unmap(), true
	}
	n, err := normalName(s)
	if err != nil || strings.Contains(n, "*") {
		return "", netip.Addr{}, false
	}
	return n, netip.Addr{}, true
}

// Precheck decides what it can before the proxy resolves a name: a deny entry for the name
// wins, and a name no allow entry of any kind could cover is refused without a lookup (no DNS
// query leaks a name the step does not allow). needResolve is true when the answer waits for
// the addresses (Decide). An IP literal is decided at once.
func (r Rules) Precheck(h Host) (d Decision, needResolve bool) {
	name, addr, ok := h.Normal()
	if !ok {
		return Decision{Rule: RuleBadHost}, false
	}
	if addr.IsValid() {
		d, _ := r.Decide(h, []netip.Addr{addr})
		return d, false
	}
	for _, e := range r.Deny {
		if e.matchesName(name, h.Port) {
			return deny(e), false
		}
	}
	for _, e := range r.Allow {
		if e.matchesName(name, h.Port) {
			return allow(e), true
		}
	}
	for _, e := range r.Allow {
		if e.Addr.IsValid() && e.portMatches(h.Port) {
			// an IP entry may cover what the name resolves to
			return Decision{Rule: RuleNotListed}, true
		}
	}
	return Decision{Rule: RuleNotListed}, false
}

// Decide gives the answer for h resolved to addrs, and the address to connect to (the first
// allowed one, in order). Deny entries win; an IP entry matches the address; a name entry
// matches the name as asked, but a special address (Classify) behind it is refused unless an
// allow entry lists that address literally.
func (r Rules) Decide(h Host, addrs []netip.Addr) (Decision, netip.Addr) {
	name, lit, ok := h.Normal()
	if !ok {
		return Decision{Rule: RuleBadHost}, netip.Addr{}
	}
	if lit.IsValid() {
		addrs = []netip.Addr{lit}
	}
	if len(addrs) == 0 {
		return Decision{Rule: RuleNoAddress}, netip.Addr{}
	}
	for _, e := range r.Deny {
		if name != "" && e.matchesName(name, h.Port) {
			return deny(e), netip.Addr{}
		}
	}
	first := Decision{Rule: RuleNotListed}
	for i, a := range addrs {
		d := r.decideAddr(name, a.Unmap(), h.Port)
		if d.Allowed {
			return d, a.Unmap()
		}
		if i == 0 {
			first = d
		}
	}
	return first, netip.Addr{}
}

// decideAddr decides one resolved address.
func (r Rules) decideAddr(name string, a netip.Addr, port int) Decision {
	for _, e := range r.Deny {
		if e.matchesAddr(a, port) {
			return deny(e)
		}
	}
	for _, e := range r.Allow {
		if e.matchesAddr(a, port) {
			return allow(e)
		}
	}
	if name == "" {
		return Decision{Rule: RuleNotListed}
	}
	for _, e := range r.Allow {
		if !e.matchesName(name, port) {
			continue
		}
		if class := Classify(a); class != "" {
			return Decision{Rule: class + " address " + a.String() + " (list it literally to allow it)"}
		}
		return allow(e)
	}
	return Decision{Rule: RuleNotListed}
}

// Covers reports whether the rules allow host on port by name or literal, before any lookup:
// what validate asks of a `url:` MCP server's host.
func (r Rules) Covers(h Host) bool {
	d, _ := r.Precheck(h)
	return d.Allowed
}

// HostOfURL is the destination an http(s) URL names, its port defaulted by scheme (80, 443):
// what a step's lists must cover for a `url:` MCP server.
func HostOfURL(rawURL string) (Host, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return Host{}, false
	}
	port := 443
	if u.Scheme == "http" {
		port = 80
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Host{}, false
		}
		port = n
	}
	return Host{Name: u.Hostname(), Port: port}, true
}
