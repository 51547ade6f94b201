package mcpserver

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
func (d *direct) parse(req *jsonrpc.Request) (directCall, bool) {
	call := directCall{id: req.ID}
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
			i, call.args = 2, value
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
		return call, false
	}
	name, ok := plainJSONString(nameRaw)
	if !ok {
		return call, false
	}
	d.srv.mu.Lock()
	call.name = name
	if reg, ok := d.srv.tools[name]; ok {
		call.handler = reg.handler
	}
	d.srv.mu.Unlock()
	if call.handler == nil {
		return call, false
	}
	if len(call.args) == 0 || string(call.args) == "null" {
		call.args = json.RawMessage(`{}`)
	}
	if meta == nil || string(meta) == "null" {
		return call, true
	}
	d.mu.Lock()
	newFormat, good := d.goodMeta[string(meta)]
	d.mu.Unlock()
	if good {
		call.newFormat = newFormat
		return call, true
	}
	// Any other _meta must be a plain object that cannot change how the SDK treats the call.
	return call, eachMember(meta, func(key, _ []byte) bool {
		return string(key) != "progressToken" && !bytes.HasPrefix(key, []byte(directMetaKeyPrefix))
	})
}

// forwardedCall is what the direct path keeps of requests handed to the SDK under one id: how
// many await an answer (a client may, wrongly, reuse an id) and the _meta of the last.
type forwardedCall struct {
	n    int
	meta string
}

// forward notes a request handed to the SDK, so the direct path leaves its id alone while the
// SDK has it and learns its _meta once the SDK accepts it.
func (d *direct) forward(req *jsonrpc.Request) {
	if !req.IsCall() || d.srv.noDirect {
		return
	}
	meta := learnableMeta(req.Params)
	d.mu.Lock()
	f := d.forwarded[req.ID]
	d.forwarded[req.ID] = forwardedCall{n: f.n + 1, meta: meta}
	d.mu.Unlock()
}

// answered is told of every response written to the client: an answer of the SDK frees its id
// and, when it is a success, proves the _meta of its request valid.
func (d *direct) answered(resp *jsonrpc.Response) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.forwarded[resp.ID]
	if !ok {
		return
	}
	if f.n--; f.n > 0 {
		d.forwarded[resp.ID] = f
	} else {
		delete(d.forwarded, resp.ID)
	}
	if f.meta != "" && resp.Error == nil && len(d.goodMeta) < maxGoodMeta {
		d.goodMeta[f.meta] = selectsNewProtocol([]byte(f.meta))
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
		newKeys = newKeys || bytes.HasPrefix(key, []byte(directMetaKeyPrefix))
		return true
	}) || !newKeys {
		return ""
	}
	return string(meta)
}

// selectsNewProtocol reports whether a _meta the SDK accepted makes it treat the request as the
// 2026-07-28 protocol: a protocolVersion of that version or later (validateRequestMeta).
func selectsNewProtocol(meta []byte) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(meta, &fields) != nil {
		return false
	}
	var v string
	if json.Unmarshal(fields[directMetaKeyPrefix+"protocolVersion"], &v) != nil {
		return false
	}
	return v >= protocolVersion20260728
}

// cancelled passes a notifications/cancelled on to the direct call it names, if any.
func (d *direct) cancelled(req *jsonrpc.Request) {
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	d.mu.Lock()
	cancel := d.calls[id]
	d.mu.Unlock()
	if cancel != nil {
		cancel(nil)
	}
}
