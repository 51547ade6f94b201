// Package egress decides which connections a step's Bash may make through awf's egress proxy
// (docs/decisions/0028-egress-proxy.md): the entries of `mcp_proxy.sandbox.network.allow` and
// `deny` (host names, `*.` wildcards, IP literals, each with an optional `:port`), deny winning
// over allow, and the rule that a name resolving to a loopback, private, link-local or
// cloud-metadata address is refused unless that address is listed literally, so that an allowed
// name cannot be pointed at the host's own services by whoever controls its DNS.
package egress

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Entry is one parsed item of an allow or deny list.
type Entry struct {
	// Raw is the entry as written, which a decision names.
	Raw string
	// Host is the lower-case name without a trailing dot; for a wildcard, the suffix after "*.".
	Host string
	// Wildcard entries match every name below Host, not Host itself.
	Wildcard bool
	// Addr is set for an IP literal; Host is then empty.
	Addr netip.Addr
	// Port is 0 for any port.
	Port int
}

// ParseEntry reads one entry: `example.com`, `*.example.com`, `10.0.0.1`, `[::1]` or `::1`, each
// with an optional `:port` (an IPv6 address with a port in brackets). Its errors say what to write.
func ParseEntry(raw string) (Entry, error) {
	e := Entry{Raw: raw}
	s := strings.TrimSpace(raw)
	if s == "" {
		return e, errors.New("an empty entry: write a host name, *.domain or an IP address")
	}
	host, port, err := splitPort(s)
	if err != nil {
		return e, err
	}
	e.Port = port
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return e, fmt.Errorf("%q: an address with a zone cannot be matched: drop %%%s", raw, a.Zone())
		}
		e.Addr = a.Unmap()
		return e, nil
	}
	if strings.Contains(host, ":") {
		return e, fmt.Errorf("%q is not an IP address nor a host name", raw)
	}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		e.Wildcard = true
		host = rest
	}
	if strings.Contains(host, "*") {
		return e, fmt.Errorf("%q: a wildcard may only open the entry, as in *.example.com", raw)
	}
	name, err := normalName(host)
	if err != nil {
		return e, fmt.Errorf("%q: %w", raw, err)
	}
	if e.Wildcard && !strings.Contains(name, ".") {
		return e, fmt.Errorf("%q: a wildcard needs a domain with a dot, as in *.example.com (for every host use network: true)", raw)
	}
	e.Host = name
	return e, nil
}

// splitPort separates an optional port: `[v6]:port`, `[v6]`, a bare IPv6 address (more than one
// colon) without a port, or `host:port`.
func splitPort(s string) (string, int, error) {
	if rest, ok := strings.CutPrefix(s, "["); ok {
		host, after, found := strings.Cut(rest, "]")
		if !found {
			return "", 0, fmt.Errorf("%q: a missing ]", s)
		}
		if after == "" {
			return host, 0, nil
		}
		p, ok := strings.CutPrefix(after, ":")
		if !ok {
			return "", 0, fmt.Errorf("%q: only :port may follow ]", s)
		}
		port, err := parsePort(s, p)
		return host, port, err
	}
	if strings.Count(s, ":") > 1 {
		return s, 0, nil
	}
	host, p, found := strings.Cut(s, ":")
	if !found {
		return s, 0, nil
	}
	port, err := parsePort(s, p)
	return host, port, err
}

// parsePort reads a port from 1 to 65535, digits only.
func parsePort(entry, p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || strings.ContainsAny(p, "+-") {
		return 0, fmt.Errorf("%q: the port %q is not a number", entry, p)
	}
	if n < 1 || n > 65535 {
		return 0, fmt.Errorf("%q: the port %d is out of range (1 to 65535)", entry, n)
	}
	return n, nil
}

// normalName lower-cases a host name, drops one trailing dot and checks its labels: letters,
// digits, '-' and '_', 1 to 63 bytes, no leading or trailing '-', 253 bytes in all.
func normalName(h string) (string, error) {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || len(h) > 253 {
		return "", errors.New("a host name must have 1 to 253 characters")
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return "", errors.New("each part of a host name must have 1 to 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "", fmt.Errorf("the part %q may not begin or end with '-'", label)
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("the character %q is not allowed in a host name", c)
			}
		}
	}
	return h, nil
}

// matchesName reports whether a name entry covers host (already normalised) on port.
func (e Entry) matchesName(host string, port int) bool {
	if e.Host == "" || !e.portMatches(port) {
		return false
	}
	if e.Wildcard {
		return strings.HasSuffix(host, "."+e.Host)
	}
	return host == e.Host
}

// matchesAddr reports whether an IP entry is a literal a for port.
func (e Entry) matchesAddr(a netip.Addr, port int) bool {
	return e.Addr.IsValid() && e.Addr == a.Unmap() && e.portMatches(port)
}

func (e Entry) portMatches(port int) bool { return e.Port == 0 || e.Port == port }
