package mcpserver

import (
	"context"
	"encoding/json"
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
	// them and a second request with the same id is dropped as the SDK drops it.
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

// stop cancels every direct call in flight: the input has ended.
func (d *direct) stop(cause error) { d.cancel(cause) }

// wait returns when every direct call has returned.
func (d *direct) wait() { d.wg.Wait() }
