package activity

// KindNetwork marks a record of one connection attempt through a step's egress proxy
// (docs/decisions/0028-egress-proxy.md), beside the tool calls; a tool call's record has no kind.
const KindNetwork = "network"

// Kinds a filter may ask for: tool calls and connections.
const (
	KindCall = "call"
)

// Connection is what a network record keeps of one attempt: where it went, how, how many bytes
// each way and what decided it; never a byte of the traffic itself.
type Connection struct {
	Host     string // as the command asked
	Port     int
	Addr     string // the address connected to; "" when refused
	Protocol string // http, connect or socks
	Method   string // plain HTTP only
	Path     string // plain HTTP only, without the query
	BytesOut int64  // from the command to the server
	BytesIn  int64  // from the server to the command
	Decision string // allow or deny
	Rule     string // the entry or rule that decided
}

// KindOf is a record's kind for filtering: KindNetwork, or KindCall for a tool call.
func (r Record) KindOf() string {
	if r.Kind == "" {
		return KindCall
	}
	return r.Kind
}
