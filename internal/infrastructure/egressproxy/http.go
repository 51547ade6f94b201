package egressproxy

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/egress"
)

// maxHeader bounds a request's head, as net/http's server does by default.
const maxHeader = 1 << 20

// http serves one proxy request: CONNECT opens a tunnel, any other method with an absolute
// http:// URL is forwarded once with `Connection: close` and its answer piped back.
func (p *Proxy) http(ctx context.Context, c net.Conn, br *bufio.Reader, lim *headLimit) {
	start := time.Now()
	req, err := http.ReadRequest(br)
	if err != nil {
		writeStatus(c, http.StatusBadRequest, "awf egress proxy: cannot read the request: "+err.Error())
		return
	}
	lim.lift()
	rec := Record{Start: start, Protocol: ProtoHTTP, Method: req.Method}
	var host, port string
	if req.Method == http.MethodConnect {
		rec.Protocol, rec.Method = ProtoConnect, ""
		host, port, err = net.SplitHostPort(req.RequestURI)
	} else {
		if req.URL == nil || req.URL.Scheme != "http" || req.URL.Host == "" {
			writeStatus(c, http.StatusBadRequest, "awf egress proxy: a proxy request needs an absolute http:// URL (use CONNECT, as HTTPS_PROXY does, for https)")
			return
		}
		rec.Path = req.URL.Path
		host, port = req.URL.Hostname(), req.URL.Port()
		if port == "" {
			port = "80"
		}
	}
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n < 1 || n > 65535 {
		rec.Host, rec.Rule = req.RequestURI, egress.RuleBadHost
		p.finish(ctx, rec)
		writeStatus(c, http.StatusBadRequest, "awf egress proxy: no host and port in "+strconv.Quote(req.RequestURI))
		return
	}
	rec.Host, rec.Port = host, n
	d, addr := p.decide(ctx, egress.Host{Name: host, Port: n})
	rec.Allowed, rec.Rule = d.Allowed, d.Rule
	if !d.Allowed {
		p.finish(ctx, rec)
		writeStatus(c, http.StatusForbidden, refusal(host, n, d.Rule))
		return
	}
	rec.Addr = addr.String()
	up, err := p.dial(ctx, addr, n)
	if err != nil {
		rec.Error = err.Error()
		p.finish(ctx, rec)
		writeStatus(c, http.StatusBadGateway, fmt.Sprintf("awf egress proxy: cannot connect to %s:%d: %v", host, n, err))
		return
	}
	defer up.Close()
	var pending []byte
	if req.Method == http.MethodConnect {
		if _, err := c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
			return
		}
		pending = buffered(br)
	} else {
		pending, err = forwardHead(req, br)
		if err != nil {
			rec.Error = err.Error()
			p.finish(ctx, rec)
			return
		}
	}
	rec.BytesOut, rec.BytesIn = p.pipe(ctx, c, up, pending)
	p.finish(ctx, rec)
}

// forwardHead is the request as the origin server expects it: origin-form target, the
// client's headers without the hop-by-hop ones, `Connection: close` (one request per
// connection), its own framing, then the body bytes already read. The rest of the body follows
// raw from the client.
func forwardHead(req *http.Request, br *bufio.Reader) ([]byte, error) {
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Keep-Alive", "Connection", "Te", "Trailer", "Upgrade"} {
		req.Header.Del(h)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), req.Host)
	if err := req.Header.Write(&b); err != nil {
		return nil, err
	}
	if len(req.TransferEncoding) > 0 {
		b.WriteString("Transfer-Encoding: " + strings.Join(req.TransferEncoding, ", ") + "\r\n")
	}
	b.WriteString("Connection: close\r\n\r\n")
	return append(b.Bytes(), buffered(br)...), nil
}

// buffered takes the bytes the reader has read ahead.
func buffered(br *bufio.Reader) []byte {
	n := br.Buffered()
	if n == 0 {
		return nil
	}
	b, _ := br.Peek(n)
	return append([]byte{}, b...)
}

// refusal is the message a refused command sees: what was refused, why, and what to change.
func refusal(host string, port int, rule string) string {
	return fmt.Sprintf("awf egress proxy: connection to %s refused (%s); add it to the step's mcp_proxy.sandbox.network.allow to allow it",
		net.JoinHostPort(host, strconv.Itoa(port)), rule)
}

// writeStatus answers with a short text body and closes the exchange.
func writeStatus(c net.Conn, code int, msg string) {
	msg = strings.ToValidUTF8(msg, "?") + "\n"
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\nX-Awf-Egress: refused\r\n\r\n%s",
		code, http.StatusText(code), len(msg), msg)
}

// finish stamps the duration and hands the record over.
func (p *Proxy) finish(ctx context.Context, r Record) {
	r.Duration = time.Since(r.Start)
	p.o.Record(context.WithoutCancel(ctx), r)
}

// headLimit fails (rather than ends) past n bytes while a request's head is read, so an endless
// head is an error; lift turns the limit off for the bytes piped after it.
type headLimit struct {
	r io.Reader
	n int
}

func (l *headLimit) Read(b []byte) (int, error) {
	if l.n < 0 {
		return l.r.Read(b)
	}
	if l.n == 0 {
		return 0, fmt.Errorf("the request head is over %d bytes", maxHeader)
	}
	if len(b) > l.n {
		b = b[:l.n]
	}
	n, err := l.r.Read(b)
	l.n -= n
	return n, err
}

func (l *headLimit) lift() { l.n = -1 }
