// Package rawcall is an accelerator of package mcpbridge: over stdio, it writes tools/call to a
// bridged server itself and reads the reply once, straight into awf's result, beside the
// go-sdk's client that keeps the session. mcpbridge is complete without it; AWF_ACCEL_OFF=
// bridge-raw (package accel) switches it off, so the two paths can be measured in one binary.
// Its contract is mcpbridge.FromCallResult: the same reply gives the same result.
package rawcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
	"github.com/awf-dev/awf/pkg/jsonstr"
)

//lint:file-ignore SA1019 The log level rides on each request under the 2026-07-28 protocol (SEP-2575), deprecated by SEP-2577 but still what servers read.

// A bridged call crosses awf twice, and on the way back the SDK's client decodes the server's
// line three times (the JSON-RPC message, the result, each content block), each decode with a
// fresh 32 KiB buffer, after which awf encoded every non-text block again for the agent (see
// docs/notes/go-sdk-workarounds.md). Over
// stdio awf therefore sends tools/call itself: the request is one line written with the
// session's own per-request _meta (learned from the SDK's tools/list), the reply is read once,
// straight into awf's result, and every non-text block keeps the server's bytes. The SDK keeps
// the session: initialize, tools/list, ping, notifications and anything unusual.

// rawIDPrefix starts the ids of the calls awf sends itself: strings, where the SDK's are
// numbers, so the two never meet.
const rawIDPrefix = "awf-"

// calls tracks the tools/call requests awf sent itself on one stdio connection.
type calls struct {
	write   func(line []byte) error // the connection's, one whole line at a time
	next    atomic.Uint64
	pending atomic.Int64 // len(waiting)
	mu      sync.Mutex
	waiting map[string]chan rawReply // by the id's JSON text, quotes included
	gone    error                    // set when the connection ended
	// meta is the per-request _meta the SDK puts on this session's requests (protocolVersion,
	// clientInfo, clientCapabilities under the 2026-07-28 protocol; none before it), as the
	// JSON members to write inside "_meta":{…}; learned is set once it is known.
	meta    atomic.Pointer[[]byte]
	learned atomic.Bool
}

// rawReply is what the reading goroutine hands a waiting call: its result or the server's
// JSON-RPC error.
type rawReply struct {
	res tool.Result
	err error
}

// traceMetaKeys are the keys of mcpbridge.TraceMeta, in the order the request writes them.
var traceMetaKeys = []string{"traceparent", "tracestate"}

// sessionMetaKeys are the per-request _meta keys of the 2026-07-28 protocol (SEP-2575).
var sessionMetaKeys = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities}

// learn records the per-request _meta of the SDK's first tools/list, sent once the session is
// initialized; before it, awf's calls go through the SDK.
func (r *calls) learn(req *jsonrpc.Request) {
	if r.learned.Load() || req.Method != "tools/list" {
		return
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(req.Params) > 0 && json.Unmarshal(req.Params, &p) != nil {
		return
	}
	var b []byte
	for _, k := range sessionMetaKeys {
		if v, ok := p.Meta[k]; ok {
			b = jsonstr.Append(b, k)
			b = append(b, ':')
			b = append(b, v...)
			b = append(b, ',')
		}
	}
	r.meta.Store(&b)
	r.learned.Store(true)
}

// open registers a call and returns its id (JSON text) and the channel its reply comes on;
// on a connection that is gone it returns why.
func (r *calls) open() (string, chan rawReply, error) {
	id := `"` + rawIDPrefix + strconv.FormatUint(r.next.Add(1), 10) + `"`
	ch := make(chan rawReply, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gone != nil {
		return "", nil, r.gone
	}
	if r.waiting == nil {
		r.waiting = map[string]chan rawReply{}
	}
	r.waiting[id] = ch
	r.pending.Add(1)
	return id, ch, nil
}

// close forgets a call that was not answered (cancelled, timed out); a reply that comes later
// is dropped. A call already answered is gone from waiting, and close does nothing.
func (r *calls) close(id string) {
	r.mu.Lock()
	if _, ok := r.waiting[id]; ok {
		delete(r.waiting, id)
		r.pending.Add(-1)
	}
	r.mu.Unlock()
}

// request is the tools/call line for id: the session's _meta, the log level, the progress
// token when there is one, the call's trace context (traceparent, tracestate: the keys
// mcpbridge.TraceMeta gives, as the SDK path sends them), the tool's name and its arguments
// (compacted: a line is a message).
func (r *calls) request(id, name string, args json.RawMessage, progressToken string, traceMeta map[string]string) ([]byte, error) {
	b := make([]byte, 0, 192+len(args))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":"tools/call","params":{"_meta":{`...)
	if m := r.meta.Load(); m != nil {
		b = append(b, *m...)
	}
	b = jsonstr.Append(b, mcp.MetaKeyLogLevel)
	b = append(b, `:"info"`...)
	if progressToken != "" {
		b = append(b, `,"progressToken":`...)
		b = jsonstr.Append(b, progressToken)
	}
	for _, k := range traceMetaKeys {
		if v, ok := traceMeta[k]; ok {
			b = append(b, ',')
			b = jsonstr.Append(b, k)
			b = append(b, ':')
			b = jsonstr.Append(b, v)
		}
	}
	b = append(b, `},"name":`...)
	b = jsonstr.Append(b, name)
	b = append(b, `,"arguments":`...)
	if len(bytes.TrimSpace(args)) == 0 {
		b = append(b, `{}`...)
	} else {
		buf := bytes.NewBuffer(b)
		if err := json.Compact(buf, args); err != nil {
			return nil, fmt.Errorf("the arguments are not JSON: %w", err)
		}
		b = buf.Bytes()
	}
	return append(b, "}}\n"...), nil
}

// rawEnvelope is a JSON-RPC message as the reading goroutine checks it for a reply to a call
// awf sent: an id, no method, and a result or an error.
type rawEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result *rawResult      `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

// take hands line to the call waiting for it and reports true, or reports false for a line
// that is not a reply to one of awf's calls (then the SDK reads it). A reply that asks the
// client for input (2026-07-28's resultType "incomplete") is refused: awf answers no
// elicitation or sampling for a bridged server.
func (r *calls) take(line []byte) bool {
	if !r.learned.Load() || !bytes.Contains(line, []byte(`"`+rawIDPrefix)) {
		return false
	}
	var env rawEnvelope
	if json.Unmarshal(line, &env) != nil || env.Method != "" || len(env.ID) == 0 || env.ID[0] != '"' {
		return false
	}
	r.mu.Lock()
	ch, ok := r.waiting[string(env.ID)]
	if ok { // claimed: no one else sends on ch
		delete(r.waiting, string(env.ID))
		r.pending.Add(-1)
	}
	r.mu.Unlock()
	if !ok {
		// A reply to a call that already gave up (cancelled, timed out): nobody waits for it,
		// and the SDK would not know its id either.
		return bytes.HasPrefix(bytes.Trim(env.ID, `"`), []byte(rawIDPrefix))
	}
	var reply rawReply
	switch {
	case env.Error != nil:
		reply.err = env.Error
	case env.Result == nil:
		reply.err = errors.New("the server answered with neither a result nor an error")
	case env.Result.ResultType != "" && env.Result.ResultType != "complete":
		reply.err = fmt.Errorf("the server asked for input (resultType %q: elicitation or sampling), which awf does not provide to bridged servers", env.Result.ResultType)
	default:
		reply.res = env.Result.toResult()
	}
	ch <- reply // buffered, and claimed above
	return true
}

// fail ends every waiting call with err, and refuses later ones: the connection is gone.
func (r *calls) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gone == nil {
		r.gone = err
	}
	for id, ch := range r.waiting {
		ch <- rawReply{err: err}
		delete(r.waiting, id)
		r.pending.Add(-1)
	}
}

// rawResult is a CallToolResult as read from the wire, its blocks and structuredContent kept
// as the server wrote them.
type rawResult struct {
	Content           []rawBlock                 `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent"`
	IsError           bool                       `json:"isError"`
	Meta              map[string]json.RawMessage `json:"_meta"`
	ResultType        string                     `json:"resultType"`
}

// rawBlock is one content block: its bytes, and what tells a plain text block (no
// annotations, no _meta) from the rest.
type rawBlock struct {
	raw   json.RawMessage
	kind  string
	text  string
	plain bool
}

// UnmarshalJSON keeps the block's bytes and reads its type and text.
func (b *rawBlock) UnmarshalJSON(data []byte) error {
	var w struct {
		Type        string          `json:"type"`
		Text        string          `json:"text"`
		Annotations json.RawMessage `json:"annotations"`
		Meta        json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	b.raw = append(json.RawMessage(nil), data...)
	b.kind, b.text = w.Type, w.Text
	b.plain = w.Type == "text" && isAbsent(w.Annotations) && isAbsent(w.Meta)
	return nil
}

func isAbsent(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// toResult is mcpbridge.FromCallResult for a result read from the wire: a plain text block becomes text,
// every other block keeps the server's JSON in Raw with a payload-free summary as its Text,
// structuredContent stays as sent, and _meta loses only the protocol's own keys.
func (r *rawResult) toResult() tool.Result {
	out := tool.Result{IsError: r.IsError, Content: make([]tool.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		if c.plain {
			out.Content = append(out.Content, tool.Content{Type: "text", Text: c.text})
			continue
		}
		block := tool.Content{Type: c.kind, Raw: c.raw}
		if c.kind == "text" {
			block.Text = c.text
		} else {
			block.Text = tool.SummaryText(block.Summary())
		}
		out.Content = append(out.Content, block)
	}
	if !isAbsent(r.StructuredContent) {
		out.Structured = r.StructuredContent
	}
	var own map[string]json.RawMessage
	for k, v := range r.Meta {
		if mcpbridge.IsHopMeta(k) {
			continue
		}
		if own == nil {
			own = map[string]json.RawMessage{}
		}
		own[k] = v
	}
	if own != nil {
		out.Meta, _ = json.Marshal(own)
	}
	return out
}
