package direct

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The direct path's view of the params and the per-request _meta (see direct.go): which calls
// it may run, and what the SDK's answers taught it about the _meta a client sends.

// parse reads the params of a tools/call the direct path can run: an object of _meta, name and
// arguments only, each once, name a plain string naming an added tool, _meta absent, null, one
// the SDK accepted before in this session, or one that cannot select the new protocol nor ask
// for progress.
func (p *Path) parse(req *jsonrpc.Request) (call, bool) {
	c := call{id: req.ID}
	var seen [3]bool
	var nameRaw, meta []byte
	ok := eachMember(req.Params, func(key, value []byte) bool {
		var i int
		switch string(key) {
		case "_meta":
			i, meta = 0, value
		case "name":
			i, nameRaw = 1, value
		case "arguments":
			i, c.args = 2, value
		default:
			return false
		}
		if seen[i] {
			return false
		}
		seen[i] = true
		return true
	})
	if !ok || nameRaw == nil {
		return c, false
	}
	name, ok := plainJSONString(nameRaw)
	if !ok || !p.srv.host.Known(name) {
		return c, false
	}
	c.name = name
	if len(c.args) == 0 || string(c.args) == "null" {
		c.args = json.RawMessage(`{}`)
	}
	if meta == nil || string(meta) == "null" {
		return c, true
	}
	p.mu.Lock()
	newFormat, good := p.goodMeta[string(meta)]
	p.mu.Unlock()
	if good {
		c.newFormat = newFormat
		return c, true
	}
	// Any other _meta must be a plain object that cannot change how the SDK treats the call.
	return c, eachMember(meta, func(key, _ []byte) bool {
		return string(key) != "progressToken" && !bytes.HasPrefix(key, []byte(metaKeyPrefix))
	})
}

// forwardedCall is what the direct path keeps of requests handed to the SDK under one id: how
// many await an answer (a client may, wrongly, reuse an id) and the _meta of the last.
type forwardedCall struct {
	n    int
	meta string
}

// Forward notes a request handed to the SDK, so the direct path leaves its id alone while the
// SDK has it and learns its _meta once the SDK accepts it.
func (p *Path) Forward(req *jsonrpc.Request) {
	if p == nil || !req.IsCall() {
		return
	}
	meta := learnableMeta(req.Params)
	p.mu.Lock()
	f := p.forwarded[req.ID]
	p.forwarded[req.ID] = forwardedCall{n: f.n + 1, meta: meta}
	p.mu.Unlock()
}

// Answered is told of every response written to the client: an answer of the SDK frees its id
// and, when it is a success, proves the _meta of its request valid.
func (p *Path) Answered(resp *jsonrpc.Response) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.forwarded[resp.ID]
	if !ok {
		return
	}
	if f.n--; f.n > 0 {
		p.forwarded[resp.ID] = f
	} else {
		delete(p.forwarded, resp.ID)
	}
	if f.meta != "" && resp.Error == nil && len(p.goodMeta) < maxGoodMeta {
		p.goodMeta[f.meta] = selectsNewProtocol([]byte(f.meta))
	}
}

// maxGoodMeta bounds the _meta objects remembered: a client sends the same one with every
// request, so a handful is plenty.
const maxGoodMeta = 16

// learnableMeta returns the request's _meta when its success would tell the direct path
// something: a plain object with keys of the new protocol and no progress token. "" otherwise.
func learnableMeta(params json.RawMessage) string {
	var meta []byte
	if !eachMember(params, func(key, value []byte) bool {
		if string(key) == "_meta" {
			if meta != nil {
				return false
			}
			meta = value
		}
		return true
	}) || meta == nil {
		return ""
	}
	keys := map[string]bool{}
	newKeys := false
	if !eachMember(meta, func(key, _ []byte) bool {
		if keys[string(key)] || string(key) == "progressToken" {
			return false
		}
		keys[string(key)] = true
		newKeys = newKeys || bytes.HasPrefix(key, []byte(metaKeyPrefix))
		return true
	}) || !newKeys {
		return ""
	}
	return string(meta)
}

// selectsNewProtocol reports whether a _meta the SDK accepted makes it treat the request as the
// ModernProtocol: a protocolVersion of that version or later (validateRequestMeta).
func selectsNewProtocol(meta []byte) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(meta, &fields) != nil {
		return false
	}
	var v string
	if json.Unmarshal(fields[metaKeyPrefix+"protocolVersion"], &v) != nil {
		return false
	}
	return v >= ModernProtocol
}

// Cancelled passes a notifications/cancelled on to the direct call it names, if any.
func (p *Path) Cancelled(req *jsonrpc.Request) {
	if p == nil || req.Method != "notifications/cancelled" {
		return
	}
	var params struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &params) != nil {
		return
	}
	id, err := jsonrpc.MakeID(params.RequestID)
	if err != nil {
		return
	}
	p.mu.Lock()
	cancel := p.calls[id]
	p.mu.Unlock()
	if cancel != nil {
		cancel(nil)
	}
}
