package mcpserver

import (
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// eofGrace bounds how long a session whose input has ended waits for the answers it still owes
// (see owed). Those requests are the protocol's own (initialize, tools/list, ping), answered in
// microseconds; the bound only keeps a handler that never answers from holding the session.
const eofGrace = 2 * time.Second

// owed counts the requests handed to the SDK that it has not answered yet, other than
// tools/call. A client may write its requests and close its input at once (`printf … | awf
// mcp-serve`, a script, a test): the SDK ends its session on the input's EOF and drops every
// answer not yet written, so such a client got some of its answers, none, or all, by the luck
// of the scheduler, initialize included. The reader waits on owed before it reports the EOF,
// so what was asked before the input ended is answered. Tool calls are not waited for: the
// end of the input cancels them, as it always has (a client that closes its input is leaving).
type owed struct {
	mu   sync.Mutex
	ids  map[jsonrpc.ID]int // a client may, wrongly, reuse an id
	paid chan struct{}      // closed when ids empties, while someone waits
}

// add counts req when an answer to it is owed.
func (o *owed) add(req *jsonrpc.Request) {
	if !req.IsCall() || req.Method == "tools/call" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ids == nil {
		o.ids = map[jsonrpc.ID]int{}
	}
	o.ids[req.ID]++
}

// answered settles the request resp answers, if it was owed.
func (o *owed) answered(resp *jsonrpc.Response) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n, ok := o.ids[resp.ID]
	if !ok {
		return
	}
	if n > 1 {
		o.ids[resp.ID] = n - 1
		return
	}
	delete(o.ids, resp.ID)
	if len(o.ids) == 0 && o.paid != nil {
		close(o.paid)
		o.paid = nil
	}
}

// settled is closed once nothing is owed.
func (o *owed) settled() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.ids) == 0 {
		done := make(chan struct{})
		close(done)
		return done
	}
	if o.paid == nil {
		o.paid = make(chan struct{})
	}
	return o.paid
}
