package workflow

// Egress is `mcp_proxy.sandbox.network: {allow: [...], deny: [...]}`
// (docs/decisions/0028-egress-proxy.md): Bash reaches only what Allow lists, through awf's
// egress proxy, and never what Deny lists. Entries are host names, `*.` wildcards and IP
// literals with an optional `:port`; package egress parses and matches them.
type Egress struct {
	Allow []string
	Deny  []string
}
