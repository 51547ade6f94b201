// Package direct is an accelerator of pkg/mcpserver (Options.Accelerators, AccelDirect): it runs
// an ordinary tools/call (a tool that was added, in an initialized session, without a progress
// token) from the input reader straight to its handler and writes the answer itself, instead of
// handing the request to the SDK's session. The answer is byte for byte what the SDK would send:
// the transcripts in pkg/mcpserver/testdata pin it, and the whole pkg/mcpserver suite runs with
// this path on and off. Everything else (initialize, tools/list, unknown tools, calls with a
// progress token, anything unusual in the params) goes to the SDK as before.
//
// What it saves, per call: the SDK decodes the params twice more and, for a 2026-07-28 client,
// re-validates the per-request _meta with two more decodes and re-encodings, each decode with a
// fresh 32 KiB buffer; it encodes the result text three times over (marshal, then compact
// twice); and the request crosses two more goroutines. docs/notes/go-sdk-workarounds.md says
// why, and what the SDK would need for this package to go. A whole agent step through awf-serve
// spends markedly more server CPU and wall time without it (tests/bench BenchmarkStepSession).
//
// The package also holds the wire shortcuts of the same path (wire.go): building a request from
// a short line without decoding it twice, and writing an integer-id answer without re-encoding
// the result.
package direct

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ModernProtocol is the first protocol version with per-request _meta and result types
// (the go-sdk's protocolVersion20260728, which it does not export). The SDK also assumes it for
// a session without initialize.
const ModernProtocol = "2026-07-28"

// metaKeyPrefix starts the per-request _meta keys of the ModernProtocol (protocolVersion,
// clientInfo, clientCapabilities, logLevel), which the SDK validates.
const metaKeyPrefix = "io.modelcontextprotocol/"

// Host is what the direct path needs of the server it runs calls for.
type Host interface {
	// Known reports whether a tool was added under name.
	Known(name string) bool
	// Call runs the tool added under name as the SDK's path runs it (a handler's panic recovered,
	// its result converted); a non-nil error is the JSON-RPC error to answer.
	Call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error)
	// Encode renders a response as one line, as the SDK's answers are written; nil when it
	// cannot be encoded (jsonrpc2 then writes nothing either).
	Encode(resp *jsonrpc.Response) []byte
}

// Server is the direct path of one mcpserver.Server: what its connections share.
type Server struct {
	host Host
	impl *mcp.Implementation
	// serverInfoMeta is the _meta of a ModernProtocol answer naming this server, as the SDK
	// writes it; encoded on first use, off the path of every start.
	serverInfoMeta func() []byte
	// passed reports whether the check of the SDK has passed (Passed).
	passed func() bool
	// Calls counts the calls run on the direct path, for tests.
	Calls atomic.Int64
}

// NewServer returns the direct path of a server named impl. It starts Check in the background
// and calls failed with its error if the SDK linked no longer answers as this package writes:
// the path then takes nothing and the SDK serves every call.
func NewServer(host Host, impl *mcp.Implementation, failed func(error)) *Server {
	return newServer(host, impl, failed, Check, Passed)
}

// newServer is NewServer with the check and its verdict given.
func newServer(host Host, impl *mcp.Implementation, failed func(error), check func() error, passed func() bool) *Server {
	go func() {
		if err := check(); err != nil && failed != nil {
			failed(err)
		}
	}()
	meta := sync.OnceValue(func() []byte {
		b, _ := json.Marshal(map[string]any{mcp.MetaKeyServerInfo: impl}) // cannot fail
		return b
	})
	return &Server{host: host, impl: impl, serverInfoMeta: meta, passed: passed}
}

// Ready reports whether the path may take calls and the wire shortcuts may be used: it is on
// and Check has passed.
func (s *Server) Ready() bool { return s != nil && s.passed() }

// Path is the direct path of one connection. A nil *Path takes nothing, so a server without the
// accelerator uses the SDK for every call; so does one whose Check has not passed.
type Path struct {
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
	// whether they select the ModernProtocol for the request.
	goodMeta map[string]bool
	wg       sync.WaitGroup
	// idle hands a call to a worker waiting for one (see work).
	idle chan job
}

// Open returns the direct path of a connection served under ctx; nil on a nil Server.
func (s *Server) Open(ctx context.Context) *Path {
	if s == nil {
		return nil
	}
	p := &Path{srv: s, calls: map[jsonrpc.ID]context.CancelCauseFunc{}, forwarded: map[jsonrpc.ID]forwardedCall{},
		goodMeta: map[string]bool{}, idle: make(chan job)}
	p.ctx, p.cancel = context.WithCancelCause(ctx)
	return p
}

// Ready reports whether the path takes calls and its wire shortcuts may be used (Server.Ready).
func (p *Path) Ready() bool { return p != nil && p.srv.Ready() }

// SetSession gives the path the SDK session of its connection; until then it takes nothing.
func (p *Path) SetSession(ss *mcp.ServerSession) {
	if p != nil {
		p.session.Store(ss)
	}
}

// call is what Take read from a tools/call it runs.
type call struct {
	id        jsonrpc.ID
	name      string
	args      json.RawMessage
	newFormat bool // the request's _meta selects the ModernProtocol
}

// Take runs req on the direct path when it can, and reports whether it did; write writes one
// whole answer line. A request it does not take must go to the SDK, after Forward.
func (p *Path) Take(req *jsonrpc.Request, write func([]byte)) bool {
	if !p.Ready() || !req.IsCall() {
		return false
	}
	p.mu.Lock()
	_, dup := p.calls[req.ID]
	p.mu.Unlock()
	if dup {
		// The SDK drops a request whose id is in use without an answer (jsonrpc2 clears its
		// id and then handles it as a notification); so does the direct path.
		return true
	}
	if req.Method != "tools/call" {
		return false
	}
	session := p.session.Load()
	if session == nil {
		return false
	}
	init := session.InitializeParams()
	if init == nil {
		return false
	}
	c, ok := p.parse(req)
	if !ok {
		return false
	}
	p.mu.Lock()
	if _, busy := p.forwarded[req.ID]; busy {
		p.mu.Unlock()
		return false // the SDK has a request with this id: it answers the duplicate
	}
	ctx, cancel := context.WithCancelCause(p.ctx)
	p.calls[req.ID] = cancel
	p.wg.Add(1)
	p.mu.Unlock()
	p.srv.Calls.Add(1)
	j := job{ctx: ctx, cancel: cancel, call: c, sessionFormat: init.ProtocolVersion >= ModernProtocol, write: write}
	select {
	case p.idle <- j:
	default:
		go p.work(j)
	}
	return true
}

// job is one call handed to a worker.
type job struct {
	ctx           context.Context
	cancel        context.CancelCauseFunc
	call          call
	sessionFormat bool
	write         func([]byte)
}

// work runs j, then waits for the next job until the connection ends. Keeping the workers keeps
// their stacks: a fresh goroutine per call grows its stack through the handler's deep calls
// every time (runtime.copystack was an eighth of the server's CPU per call).
func (p *Path) work(j job) {
	for {
		p.run(j)
		select {
		case j = <-p.idle:
		case <-p.ctx.Done():
			return
		}
	}
}

// run calls the handler and writes its answer as the SDK would (ServerSession.handle, callTool
// and jsonrpc2's processResult for a tools/call).
func (p *Path) run(j job) {
	defer p.wg.Done()
	buf := answerBufs.Get().(*[]byte)
	line := p.answerLine(j.ctx, (*buf)[:0], j.call, j.sessionFormat)
	// As the SDK does, the id is free again before the answer is written.
	p.mu.Lock()
	delete(p.calls, j.call.id)
	p.mu.Unlock()
	if line != nil {
		j.write(line)
	}
	j.cancel(nil)
	if cap(line) <= maxPooledAnswer {
		*buf = line[:0]
		answerBufs.Put(buf)
	}
}

// Stop cancels every direct call in flight: the input has ended.
func (p *Path) Stop(cause error) {
	if p != nil {
		p.cancel(cause)
	}
}

// Wait returns when every direct call has returned.
func (p *Path) Wait() {
	if p != nil {
		p.wg.Wait()
	}
}
