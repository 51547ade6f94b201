package egress

import (
	"net/netip"
	"strings"
	"testing"
)

func TestParseEntry(t *testing.T) {
	for _, c := range []struct {
		in       string
		host     string
		wildcard bool
		addr     string
		port     int
		err      string
	}{
		{in: "example.com", host: "example.com"},
		{in: "Example.COM.", host: "example.com"},
		{in: " api.example.com:443 ", host: "api.example.com", port: 443},
		{in: "*.example.com", host: "example.com", wildcard: true},
		{in: "*.example.com:8443", host: "example.com", wildcard: true, port: 8443},
		{in: "10.0.0.1", addr: "10.0.0.1"},
		{in: "127.0.0.1:8080", addr: "127.0.0.1", port: 8080},
		{in: "::1", addr: "::1"},
		{in: "[::1]", addr: "::1"},
		{in: "[fd00:ec2::254]:80", addr: "fd00:ec2::254", port: 80},
		{in: "::ffff:127.0.0.1", addr: "127.0.0.1"},
		{in: "under_score.example", host: "under_score.example"},
		{in: "a:1", host: "a", port: 1},
		{in: "a:65535", host: "a", port: 65535},
		{in: "", err: "empty"},
		{in: "   ", err: "empty"},
		{in: "a.*.example.com", err: "may only open"},
		{in: "foo*.example.com", err: "may only open"},
		{in: "**.example.com", err: "may only open"},
		{in: "*", err: "may only open"},
		{in: "*.com", err: "needs a domain with a dot"},
		{in: "example.com:0", err: "out of range"},
		{in: "example.com:65536", err: "out of range"},
		{in: "example.com:-1", err: "not a number"},
		{in: "example.com:+80", err: "not a number"},
		{in: "example.com:http", err: "not a number"},
		{in: "example.com:", err: "not a number"},
		{in: "[::1", err: "missing ]"},
		{in: "[::1]x", err: "only :port"},
		{in: "[::1]:99999", err: "out of range"},
		{in: "fe80::1%eth0", err: "zone"},
		{in: "exa mple.com", err: "not allowed"},
		{in: "-bad.example", err: "begin or end"},
		{in: "bad-.example", err: "begin or end"},
		{in: "a..b", err: "1 to 63"},
		{in: strings.Repeat("a", 64) + ".example", err: "1 to 63"},
		{in: strings.Repeat("a.", 127) + "aa", err: "1 to 253"},
		{in: "a:b:c:zz", err: "not an IP address"},
		{in: "http://example.com", err: "not a number"},
	} {
		e, err := ParseEntry(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseEntry(%q) error = %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseEntry(%q): %v", c.in, err)
			continue
		}
		var addr netip.Addr
		if c.addr != "" {
			addr = netip.MustParseAddr(c.addr)
		}
		if e.Host != c.host || e.Wildcard != c.wildcard || e.Addr != addr || e.Port != c.port || e.Raw != c.in {
			t.Errorf("ParseEntry(%q) = %+v, want host %q wildcard %v addr %v port %d", c.in, e, c.host, c.wildcard, addr, c.port)
		}
	}
}

func TestParseNamesTheList(t *testing.T) {
	r, errs := Parse([]string{"ok.example", "a.*.b", "1.2.3.4"}, []string{"bad:0", "evil.example"})
	if len(errs) != 2 || !strings.HasPrefix(errs[0].Error(), "network.allow: ") || !strings.HasPrefix(errs[1].Error(), "network.deny: ") {
		t.Fatalf("errs = %v", errs)
	}
	if len(r.Allow) != 2 || len(r.Deny) != 1 || r.Deny[0].Host != "evil.example" {
		t.Fatalf("rules = %+v", r)
	}
	if _, errs := Parse(nil, nil); errs != nil {
		t.Fatalf("empty lists: %v", errs)
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"127.0.0.1", ClassLoopback},
		{"127.9.9.9", ClassLoopback},
		{"::1", ClassLoopback},
		{"::ffff:127.0.0.1", ClassLoopback},
		{"10.1.2.3", ClassPrivate},
		{"172.16.0.1", ClassPrivate},
		{"192.168.1.1", ClassPrivate},
		{"fd12::1", ClassPrivate},
		{"169.254.169.254", ClassMetadata},
		{"::ffff:169.254.169.254", ClassMetadata},
		{"fd00:ec2::254", ClassMetadata},
		{"169.254.1.1", ClassLinkLocal},
		{"fe80::1", ClassLinkLocal},
		{"0.0.0.0", ClassUnspecified},
		{"::", ClassUnspecified},
		{"100.64.0.1", ClassShared},
		{"100.127.255.255", ClassShared},
		{"224.0.0.1", ClassMulticast},
		{"ff02::1", ClassMulticast},
		{"ff01::1", ClassMulticast},
		{"ff0e::1", ClassMulticast},
		{"100.128.0.1", ""},
		{"8.8.8.8", ""},
		{"2606:4700::1111", ""},
	} {
		if got := Classify(netip.MustParseAddr(c.addr)); got != c.want {
			t.Errorf("Classify(%s) = %q, want %q", c.addr, got, c.want)
		}
	}
	if got := Classify(netip.Addr{}); got != ClassUnspecified {
		t.Errorf("Classify(zero) = %q", got)
	}
}

func mustRules(t *testing.T, allow, deny []string) Rules {
	t.Helper()
	r, errs := Parse(allow, deny)
	if errs != nil {
		t.Fatal(errs)
	}
	return r
}

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

func TestDecide(t *testing.T) {
	r := mustRules(t,
		[]string{"api.example.com:443", "*.pkg.test", "127.0.0.1:8080", "203.0.113.7", "open.test", "[::1]:9000", "lit.test", "10.9.9.9:80"},
		[]string{"bad.pkg.test", "198.51.100.1", "open.test:25", "*.evil.pkg.test"})
	for _, c := range []struct {
		name  string
		host  string
		port  int
		addrs []netip.Addr
		allow bool
		rule  string
		to    string
	}{
		{"name and port listed", "api.example.com", 443, addrs("93.184.216.34"), true, "allow api.example.com:443", "93.184.216.34"},
		{"name case and dot", "API.Example.com.", 443, addrs("93.184.216.34"), true, "allow api.example.com:443", "93.184.216.34"},
		{"listed name, other port", "api.example.com", 80, addrs("93.184.216.34"), false, RuleNotListed, ""},
		{"wildcard covers a subdomain", "a.pkg.test", 443, addrs("93.184.216.34"), true, "allow *.pkg.test", "93.184.216.34"},
		{"wildcard covers a deeper one", "a.b.pkg.test", 80, addrs("93.184.216.34"), true, "allow *.pkg.test", "93.184.216.34"},
		{"wildcard not its own domain", "pkg.test", 80, addrs("93.184.216.34"), false, RuleNotListed, ""},
		{"wildcard not a suffix lookalike", "xpkg.test", 80, addrs("93.184.216.34"), false, RuleNotListed, ""},
		{"deny wins over wildcard", "bad.pkg.test", 443, addrs("93.184.216.34"), false, "deny bad.pkg.test", ""},
		{"deny wildcard wins", "x.evil.pkg.test", 443, addrs("93.184.216.34"), false, "deny *.evil.pkg.test", ""},
		{"deny port entry only its port", "open.test", 25, addrs("93.184.216.34"), false, "deny open.test:25", ""},
		{"deny port entry, other port allowed", "open.test", 443, addrs("93.184.216.34"), true, "allow open.test", "93.184.216.34"},
		{"deny an address the name resolves to", "a.pkg.test", 443, addrs("198.51.100.1"), false, "deny 198.51.100.1", ""},
		{"next address when the first is denied", "a.pkg.test", 443, addrs("198.51.100.1", "93.184.216.34"), true, "allow *.pkg.test", "93.184.216.34"},
		{"first refusal reported", "a.pkg.test", 443, addrs("198.51.100.1", "127.0.0.1"), false, "deny 198.51.100.1", ""},
		{"name resolving to loopback", "a.pkg.test", 443, addrs("127.0.0.1"), false, "loopback address 127.0.0.1 (list it literally to allow it)", ""},
		{"name resolving to mapped loopback", "a.pkg.test", 443, addrs("::ffff:127.0.0.1"), false, "loopback address 127.0.0.1 (list it literally to allow it)", ""},
		{"name resolving to metadata", "a.pkg.test", 80, addrs("169.254.169.254"), false, "cloud metadata address 169.254.169.254 (list it literally to allow it)", ""},
		{"name resolving to private", "a.pkg.test", 80, addrs("10.0.0.5"), false, "private address 10.0.0.5 (list it literally to allow it)", ""},
		{"name resolving to a literal listed address", "a.pkg.test", 8080, addrs("127.0.0.1"), true, "allow 127.0.0.1:8080", "127.0.0.1"},
		{"unlisted name resolving to a listed address", "localhost", 8080, addrs("127.0.0.1"), true, "allow 127.0.0.1:8080", "127.0.0.1"},
		{"literal listed, other port", "127.0.0.1", 8081, nil, false, RuleNotListed, ""},
		{"literal listed", "127.0.0.1", 8080, nil, true, "allow 127.0.0.1:8080", "127.0.0.1"},
		{"literal any port", "203.0.113.7", 22, nil, true, "allow 203.0.113.7", "203.0.113.7"},
		{"v6 literal in brackets", "[::1]", 9000, nil, true, "allow [::1]:9000", "::1"},
		{"v6 literal other port", "::1", 9001, nil, false, RuleNotListed, ""},
		{"denied literal", "198.51.100.1", 443, nil, false, "deny 198.51.100.1", ""},
		{"literal overrides resolution", "127.0.0.1", 8080, addrs("8.8.8.8"), true, "allow 127.0.0.1:8080", "127.0.0.1"},
		{"unlisted name", "other.test", 80, addrs("93.184.216.34"), false, RuleNotListed, ""},
		{"no addresses", "a.pkg.test", 80, nil, false, RuleNoAddress, ""},
		{"bad host", "a b", 80, addrs("93.184.216.34"), false, RuleBadHost, ""},
		{"wildcard host asked", "*.pkg.test", 80, addrs("93.184.216.34"), false, RuleBadHost, ""},
		{"zone", "fe80::1%eth0", 80, nil, false, RuleBadHost, ""},
		{"private literal listed with port", "10.9.9.9", 80, nil, true, "allow 10.9.9.9:80", "10.9.9.9"},
		{"public name, listed name", "lit.test", 1, addrs("93.184.216.34"), true, "allow lit.test", "93.184.216.34"},
	} {
		d, to := r.Decide(Host{Name: c.host, Port: c.port}, c.addrs)
		want := netip.Addr{}
		if c.to != "" {
			want = netip.MustParseAddr(c.to)
		}
		if d.Allowed != c.allow || d.Rule != c.rule || to != want {
			t.Errorf("%s: Decide(%s:%d, %v) = %+v to %v, want allowed=%v rule %q to %v", c.name, c.host, c.port, c.addrs, d, to, c.allow, c.rule, want)
		}
	}
}

func TestPrecheck(t *testing.T) {
	r := mustRules(t, []string{"*.pkg.test", "127.0.0.1:8080"}, []string{"bad.pkg.test"})
	onlyNames := mustRules(t, []string{"*.pkg.test:443"}, nil)
	for _, c := range []struct {
		name    string
		rules   Rules
		host    string
		port    int
		allow   bool
		resolve bool
		rule    string
	}{
		{"allowed name resolves", r, "a.pkg.test", 443, true, true, "allow *.pkg.test"},
		{"denied name without lookup", r, "bad.pkg.test", 443, false, false, "deny bad.pkg.test"},
		{"unlisted name may resolve to a literal", r, "localhost", 8080, false, true, RuleNotListed},
		{"unlisted name, no literal on that port", r, "localhost", 9, false, false, RuleNotListed},
		{"unlisted name, names only", onlyNames, "other.test", 443, false, false, RuleNotListed},
		{"listed name, wrong port", onlyNames, "a.pkg.test", 80, false, false, RuleNotListed},
		{"literal decided at once", r, "127.0.0.1", 8080, true, false, "allow 127.0.0.1:8080"},
		{"literal refused at once", r, "127.0.0.1", 1, false, false, RuleNotListed},
		{"bad host", r, "a/b", 80, false, false, RuleBadHost},
	} {
		d, need := c.rules.Precheck(Host{Name: c.host, Port: c.port})
		if d.Allowed != c.allow || need != c.resolve || d.Rule != c.rule {
			t.Errorf("%s: Precheck(%s:%d) = %+v, %v; want %v, %v, %q", c.name, c.host, c.port, d, need, c.allow, c.resolve, c.rule)
		}
	}
	if !r.Covers(Host{Name: "x.pkg.test", Port: 443}) || r.Covers(Host{Name: "bad.pkg.test", Port: 443}) || r.Covers(Host{Name: "pkg.test", Port: 443}) {
		t.Error("Covers disagrees with the lists")
	}
}

func TestHostOfURL(t *testing.T) {
	for _, c := range []struct {
		in   string
		host string
		port int
		ok   bool
	}{
		{"https://mcp.example.com/mcp", "mcp.example.com", 443, true},
		{"http://mcp.example.com/mcp", "mcp.example.com", 80, true},
		{"https://mcp.example.com:8443/", "mcp.example.com", 8443, true},
		{"http://[::1]:9000/", "::1", 9000, true},
		{"ftp://x.example/", "", 0, false},
		{"https:///nohost", "", 0, false},
		{"https://x.example:0/", "", 0, false},
		{"https://x.example:70000/", "", 0, false},
		{"://bad", "", 0, false},
	} {
		h, ok := HostOfURL(c.in)
		if ok != c.ok || h.Name != c.host || h.Port != c.port {
			t.Errorf("HostOfURL(%q) = %+v, %v", c.in, h, ok)
		}
	}
}

func TestNormalNameBounds(t *testing.T) {
	label63 := strings.Repeat("a", 63)
	name253 := strings.Repeat(label63+".", 3) + strings.Repeat("b", 61)
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"az09-_.example", true}, {"AZ.example", true}, {label63, true}, {label63 + "a", false},
		{name253, true}, {name253 + "b", false}, {name253 + ".", true},
		{"a`", false}, {"a{", false}, {"a/", false}, {"a:", false}, {"a@", false}, {"a[", false},
	} {
		if _, err := normalName(c.in); (err == nil) != c.ok {
			t.Errorf("normalName(%q): %v, want ok=%v", c.in, err, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		port int
		ok   bool
	}{{"http://a.example:1/", 1, true}, {"http://a.example:65535/", 65535, true}} {
		if h, ok := HostOfURL(c.in); ok != c.ok || h.Port != c.port {
			t.Errorf("HostOfURL(%q) = %+v, %v", c.in, h, ok)
		}
	}
}
