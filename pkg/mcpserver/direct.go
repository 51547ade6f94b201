package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The direct path runs an ordinary tools/call (a tool that was added, in an initialized session,
// without a progress token) from the input reader straight to its handler and writes the answer
// itself, instead of handing the request to the SDK's session. The answer is byte for byte what
// the SDK would send (the transcripts in testdata/ pin it). What it saves, per call (issue 15's
// profile of a 4 KiB Read): the SDK decodes the params twice more and, for a 2026-07-28 client,
// re-validates the per-request _meta with two more decodes and re-encodings, each decode with a
// fresh 32 KiB buffer (about 130 KB and a third of the server's CPU per call); it encodes the
// 4 KiB text three times over (marshal, then compact twice); and the request crosses two more
// goroutines. Everything else (initialize, tools/list, unknown tools, calls with a progress
// token, anything unusual in the params) goes to the SDK as before.

// directMetaKeyPrefix starts the per-request _meta keys of the 2026-07-28 protocol
// (protocolVersion, clientInfo, clientCapabilities, logLevel), which the SDK validates.
const directMetaKeyPrefix = "io.modelcontextprotocol/"

// direct is the direct path of one connection.
type direct struct {
	srv     *Server
	session atomic.Pointer[mcp.ServerSession]
	// ctx is the parent of every direct call's context: cancelled when the input ends, as
	// the SDK cancels its own calls when its reader stops.
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu sync.Mutex
	// calls are the direct calls in flight, by id, so a notifications/cancelled can reach
	// them and a second request with the same id is refused as the SDK refuses it.
	calls map[jsonrpc.ID]context.CancelCauseFunc
	// forwarded are the requests handed to the SDK that await an answer, by id, with the
	// _meta they carried (learned once the SDK accepts it).
	forwarded map[jsonrpc.ID]forwardedCall
	// goodMeta are _meta objects (their exact bytes) the SDK accepted in this session, with
	// whether they select the 2026-07-28 protocol for the request.
	goodMeta map[string]bool
	wg       sync.WaitGroup
	// idle hands a call to a worker waiting for one (see work).
	idle chan directJob
}

func newDirect(ctx context.Context, srv *Server) *direct {
	d := &direct{srv: srv, calls: map[jsonrpc.ID]context.CancelCauseFunc{}, forwarded: map[jsonrpc.ID]forwardedCall{}, goodMeta: map[string]bool{},
		idle: make(chan directJob)}
	d.ctx, d.cancel = context.WithCancelCause(ctx)
	return d
}

// directCall is what take read from a tools/call it runs.
type directCall struct {
	id        jsonrpc.ID
	name      string
	handler   Handler
	args      json.RawMessage
	newFormat bool // the request's _meta selects the 2026-07-28 protocol
}

// take runs req on the direct path when it can, and reports whether it did. A request it does
// not take must go to the SDK, after forwarded.
func (d *direct) take(req *jsonrpc.Request, write func([]byte)) bool {
	if !req.IsCall() {
		return false
	}
	d.mu.Lock()
	_, dup := d.calls[req.ID]
	d.mu.Unlock()
	if dup {
		// The SDK drops a request whose id is in use without an answer (jsonrpc2 clears its
		// id and then handles it as a notification); so does the direct path.
		return true
	}
	if req.Method != "tools/call" || d.srv.noDirect {
		return false
	}
	session := d.session.Load()
	if session == nil {
		return false
	}
	init := session.InitializeParams()
	if init == nil {
		return false
	}
	call, ok := d.parse(req)
	if !ok {
		return false
	}
	d.mu.Lock()
	if _, busy := d.forwarded[req.ID]; busy {
		d.mu.Unlock()
		return false // the SDK has a request with this id: it answers the duplicate
	}
	ctx, cancel := context.WithCancelCause(d.ctx)
	d.calls[req.ID] = cancel
	d.wg.Add(1)
	d.mu.Unlock()
	d.srv.directCalls.Add(1)
	job := directJob{ctx: ctx, cancel: cancel, call: call, sessionFormat: init.ProtocolVersion >= protocolVersion20260728, write: write}
	select {
	case d.idle <- job:
	default:
		go d.work(job)
	}
	return true
}

// directJob is one call handed to a worker.
type directJob struct {
	ctx           context.Context
	cancel        context.CancelCauseFunc
	call          directCall
	sessionFormat bool
	write         func([]byte) // writes one whole answer line
}

// work runs job, then waits for the next one until the connection ends. Keeping the workers
// keeps their stacks: a fresh goroutine per call grows its stack through the handler's deep
// calls every time (runtime.copystack was an eighth of the server's CPU per call).
func (d *direct) work(job directJob) {
	for {
		d.run(job.ctx, job.cancel, job.call, job.sessionFormat, job.write)
		select {
		case job = <-d.idle:
		case <-d.ctx.Done():
			return
		}
	}
}

// protocolVersion20260728 is the first protocol version with per-request _meta and result
// types.
const protocolVersion20260728 = "2026-07-28"

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
	call.name, call.handler = name, d.srv.handlers[name]
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

// run calls the handler and writes its answer as the SDK would (ServerSession.handle, callTool
// and jsonrpc2's processResult for a tools/call).
func (d *direct) run(ctx context.Context, cancel context.CancelCauseFunc, call directCall, sessionFormat bool, write func([]byte)) {
	defer d.wg.Done()
	buf := answerBufs.Get().(*[]byte)
	line := d.answerLine(ctx, (*buf)[:0], call, sessionFormat)
	// As the SDK does, the id is free again before the answer is written.
	d.mu.Lock()
	delete(d.calls, call.id)
	d.mu.Unlock()
	if line != nil {
		write(line)
	}
	cancel(nil)
	if cap(line) <= maxPooledAnswer {
		*buf = line[:0]
		answerBufs.Put(buf)
	}
}

// answerBufs hold answer lines between calls: a 4 KiB Read's answer is written from a buffer
// the previous call used, not a new one (the line writer keeps nothing of what it writes).
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// maxPooledAnswer is the largest answer buffer kept; a rare large answer is not held on to.
const maxPooledAnswer = 256 << 10

// answerLine runs the call and appends its answer line to dst (nil when it cannot be encoded,
// when jsonrpc2 would write nothing either).
func (d *direct) answerLine(ctx context.Context, dst []byte, call directCall, sessionFormat bool) []byte {
	s := d.srv
	s.inFlight.Add(1)
	res, err := s.invoke(ctx, call.name, call.handler, call.args)
	s.inFlight.Add(-1)
	if err != nil {
		return d.encode(&jsonrpc.Response{ID: call.id, Error: rpcError(err)})
	}
	if text, ok := plainText(res); ok {
		isError, resultType := res != nil && res.IsError, sessionFormat || call.newFormat
		if id, ok := call.id.Raw().(int64); ok {
			// What encodeResult writes around the result, written straight into the line.
			dst = append(dst, `{"jsonrpc":"2.0","id":`...)
			dst = strconv.AppendInt(dst, id, 10)
			dst = append(dst, `,"result":`...)
			dst = appendTextResult(dst, text, isError, call.newFormat, resultType, s.serverInfoMeta)
			return append(dst, '}', '\n')
		}
		return d.encode(&jsonrpc.Response{ID: call.id, Result: appendTextResult(nil, text, isError, call.newFormat, resultType, s.serverInfoMeta)})
	}
	result, err := d.sdkAnswer(call, res, sessionFormat)
	if err != nil {
		return d.encode(&jsonrpc.Response{ID: call.id, Error: err})
	}
	return d.encode(&jsonrpc.Response{ID: call.id, Result: result})
}

// encode renders resp as the SDK's answers are rendered (conn.Write's encodeLine).
func (d *direct) encode(resp *jsonrpc.Response) []byte {
	line, err := encodeLine(resp)
	if err != nil {
		d.srv.logger.Error("mcpserver: encoding an answer", "error", err)
		return nil
	}
	return line
}

// sdkAnswer converts a result that is not plain text as the SDK's path does, and encodes it.
func (d *direct) sdkAnswer(call directCall, res *Result, sessionFormat bool) (json.RawMessage, error) {
	s := d.srv
	out, err := sdkResult(call.name, res)
	if err != nil {
		return nil, err
	}
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	if call.newFormat {
		// ServerSession.handle's annotateServerInfo.
		m := out.GetMeta()
		if m == nil {
			m = map[string]any{}
		}
		if _, ok := m[metaKeyServerInfo]; !ok {
			m[metaKeyServerInfo] = s.impl
			out.SetMeta(m)
		}
	}
	data, err := out.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformedResult, err)
	}
	if (sessionFormat || call.newFormat) && len(data) > 1 {
		// resultType is the last field the SDK writes (inputRequests, after it, is never set
		// here), and MarshalJSON cannot write it for a result built outside the SDK.
		data = append(data[:len(data)-1], `,"resultType":"complete"}`...)
	}
	return data, nil
}

// errMalformedResult stands for what jsonrpc2 does with a result it cannot encode (it writes
// nothing); it cannot happen with results made by sdkResult.
var errMalformedResult = errors.New("mcpserver: tool result cannot be encoded")

// metaKeyServerInfo is the _meta key under which a 2026-07-28 result names its server.
const metaKeyServerInfo = "io.modelcontextprotocol/serverInfo"

// plainText reports whether r converts to text blocks only (what sdkResult does without
// error for a result that is not rich), so appendTextResult can write it.
func plainText(r *Result) ([]Content, bool) {
	if r == nil {
		return nil, true
	}
	if r.rich() {
		return nil, false
	}
	for _, c := range r.Content {
		if c.Type != "" && c.Type != "text" {
			return nil, false
		}
	}
	return r.Content, true
}

// appendTextResult writes a CallToolResult of text blocks as the SDK's MarshalJSON does, with
// the serverInfo _meta and the resultType of a 2026-07-28 answer when asked.
func appendTextResult(dst []byte, content []Content, isError, serverInfo, resultType bool, serverInfoMeta []byte) []byte {
	size := 64 + len(serverInfoMeta)
	for _, c := range content {
		size += len(c.Text) + len(c.Text)/8 + 32
	}
	if dst == nil {
		dst = make([]byte, 0, size)
	}
	dst = append(dst, '{')
	if serverInfo {
		dst = append(dst, `"_meta":`...)
		dst = append(dst, serverInfoMeta...)
		dst = append(dst, ',')
	}
	dst = append(dst, `"content":[`...)
	for i, c := range content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = appendJSONString(dst, c.Text)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if isError {
		dst = append(dst, `,"isError":true`...)
	}
	if resultType {
		dst = append(dst, `,"resultType":"complete"`...)
	}
	return append(dst, '}')
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

// stop cancels every direct call in flight: the input has ended.
func (d *direct) stop(cause error) { d.cancel(cause) }

// wait returns when every direct call has returned.
func (d *direct) wait() { d.wg.Wait() }
