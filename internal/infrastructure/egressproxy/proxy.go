// Package egressproxy is the host side of a step's egress list (docs/decisions/0028-egress-proxy.md):
// one listener speaking both an HTTP proxy (CONNECT tunnels and plain HTTP forwarded) and SOCKS5
// (RFC 1928, CONNECT, no authentication), told apart by the first byte. It resolves names
// itself, asks the rules in internal/domain/egress, dials the address it decided on (so a second
// lookup cannot point the connection elsewhere), pipes the bytes without looking at them, and
// hands one Record per connection attempt to the caller. The sandboxed command reaches it only
// through a unix socket its helper forwards to (package sandbox).
package egressproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/domain/egress"
)

// Protocols a Record names.
const (
	ProtoHTTP    = "http"
	ProtoConnect = "connect"
	ProtoSOCKS   = "socks"
)

// Limits of one proxy: a step's commands share them.
const (
	DefaultMaxConns    = 256
	DefaultIdleTimeout = 60 * time.Second
	lookupTimeout      = 10 * time.Second
	dialTimeout        = 30 * time.Second
)

// Record is what the proxy keeps of one connection attempt: never a byte of its traffic.
type Record struct {
	Start    time.Time
	Duration time.Duration
	Protocol string
	Host     string // as asked
	Port     int
	Addr     string // the address connected to, "" when none
	Method   string // plain HTTP only
	Path     string // plain HTTP only, without the query
	BytesOut int64  // from the command to the server
	BytesIn  int64  // from the server to the command
	Allowed  bool
	Rule     string // the entry or rule that decided
	Error    string // why an allowed connection failed
}

// Options configure a Proxy; zero values take the defaults.
type Options struct {
	Rules egress.Rules
	// Lookup resolves a name; net.DefaultResolver.LookupNetIP by default.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to the decided address; a net.Dialer by default.
	Dial        func(ctx context.Context, network, addr string) (net.Conn, error)
	MaxConns    int
	IdleTimeout time.Duration
	// Record receives every attempt, with the context Serve was given (the call's span).
	Record func(ctx context.Context, r Record)
}

// Proxy serves the egress protocols for one step.
type Proxy struct {
	o   Options
	sem chan struct{}
}

// New returns a proxy with o's rules and limits.
func New(o Options) *Proxy {
	if o.Lookup == nil {
		o.Lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if o.Dial == nil {
		d := &net.Dialer{Timeout: dialTimeout}
		o.Dial = d.DialContext
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.Record == nil {
		o.Record = func(context.Context, Record) {}
	}
	return &Proxy{o: o, sem: make(chan struct{}, o.MaxConns)}
}

// Serve accepts connections on l until it is closed or ctx ends, at most MaxConns at a time
// (the rest wait in the listener's backlog), and returns once every connection it started has
// ended. ctx is handed to Record.
//
// When ctx ends, every connection still open is closed too: the call they belong to is over.
func (p *Proxy) Serve(ctx context.Context, l net.Listener) error {
	stop := context.AfterFunc(ctx, func() { _ = l.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		select {
		case p.sem <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		c, err := l.Accept()
		if err != nil {
			<-p.sem
			if errors.Is(err, net.ErrClosed) || ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-p.sem }()
			p.handle(ctx, c)
		}()
	}
}

// handle tells SOCKS5 (first byte 5) from HTTP and serves the connection.
func (p *Proxy) handle(ctx context.Context, c net.Conn) {
	defer c.Close()
	defer context.AfterFunc(ctx, func() { _ = c.Close() })()
	_ = c.SetDeadline(time.Now().Add(p.o.IdleTimeout))
	lim := &headLimit{r: c, n: maxHeader}
	br := bufio.NewReaderSize(lim, 4096)
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == socksVersion {
		p.socks(ctx, c, br, lim)
		return
	}
	p.http(ctx, c, br, lim)
}

// decide resolves h when the rules need it and returns the decision and the address to dial.
func (p *Proxy) decide(ctx context.Context, h egress.Host) (egress.Decision, netip.Addr) {
	d, need := p.o.Rules.Precheck(h)
	if !need {
		if !d.Allowed {
			return d, netip.Addr{}
		}
		_, a, _ := h.Normal()
		return d, a
	}
	name, _, _ := h.Normal()
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	addrs, err := p.o.Lookup(lctx, name)
	if err != nil || len(addrs) == 0 {
		return egress.Decision{Rule: egress.RuleNoAddress}, netip.Addr{}
	}
	return p.o.Rules.Decide(h, addrs)
}

// dial connects to the decided address.
func (p *Proxy) dial(ctx context.Context, a netip.Addr, port int) (net.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	return p.o.Dial(dctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
}

// pipe copies both ways until both directions end or one stays idle past the timeout, and
// returns the bytes each way: from client to server (out) and back (in). pending is what was
// already read from the client and belongs to the server.
func (p *Proxy) pipe(ctx context.Context, client, server net.Conn, pending []byte) (out, in int64) {
	defer context.AfterFunc(ctx, func() { _ = server.Close() })()
	idle := &idleConns{a: client, b: server, timeout: p.o.IdleTimeout}
	idle.touch()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		in, _ = copyIdle(client, server, idle)
		closeWrite(client)
	}()
	if len(pending) > 0 {
		n, err := server.Write(pending)
		out += int64(n)
		if err != nil {
			_ = server.Close()
		}
	}
	n, _ := copyIdle(server, client, idle)
	out += n
	closeWrite(server)
	wg.Wait()
	return out, in
}

// closeWrite half-closes a connection so the other side sees the end of what it reads.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	_ = c.Close()
}

// chunk is how much one splice may move before the idle deadlines are pushed on.
const chunk = 4 << 20

// copyIdle copies src to dst in chunks, pushing both connections' deadlines on while bytes
// flow. Each chunk is an io.LimitedReader over the connection itself, which TCPConn.ReadFrom
// still moves with splice(2), kernel to kernel.
func copyIdle(dst, src net.Conn, idle *idleConns) (int64, error) {
	var total int64
	for {
		lr := &io.LimitedReader{R: src, N: chunk}
		n, err := io.Copy(dst, lr)
		total += n
		if err != nil {
			return total, err
		}
		if lr.N > 0 { // the source ended before the chunk did
			return total, nil
		}
		idle.touch()
	}
}

// idleConns moves both connections' deadline to now+timeout at most once a second.
type idleConns struct {
	a, b    net.Conn
	timeout time.Duration
	mu      sync.Mutex
	last    time.Time
}

func (i *idleConns) touch() {
	now := time.Now()
	i.mu.Lock()
	defer i.mu.Unlock()
	if now.Sub(i.last) < time.Second {
		return
	}
	i.last = now
	_ = i.a.SetDeadline(now.Add(i.timeout))
	_ = i.b.SetDeadline(now.Add(i.timeout))
}
