package egressproxy

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"time"

	"github.com/awf-dev/awf/internal/domain/egress"
)

// SOCKS5 (RFC 1928): version 5, no authentication, CONNECT only.
const (
	socksVersion     = 5
	socksNoAuth      = 0
	socksNoMethod    = 0xff
	socksConnect     = 1
	socksIPv4        = 1
	socksDomain      = 3
	socksIPv6        = 4
	socksSucceeded   = 0
	socksNotAllowed  = 2
	socksHostUnreach = 4
	socksRefused     = 5
	socksCmdUnsupp   = 7
	socksAddrUnsupp  = 8
)

// socks serves one SOCKS5 connection. A refused one gets reply 2 (not allowed by the ruleset),
// which clients such as curl report with that wording.
func (p *Proxy) socks(ctx context.Context, c net.Conn, br *bufio.Reader, lim *headLimit) {
	start := time.Now()
	var hdr [2]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return
	}
	if !containsByte(methods, socksNoAuth) {
		_, _ = c.Write([]byte{socksVersion, socksNoMethod})
		return
	}
	if _, err := c.Write([]byte{socksVersion, socksNoAuth}); err != nil {
		return
	}
	host, port, code := readSocksRequest(br)
	if code != socksSucceeded {
		socksReply(c, code)
		return
	}
	lim.lift()
	rec := Record{Start: start, Protocol: ProtoSOCKS, Host: host, Port: port}
	d, addr := p.decide(ctx, egress.Host{Name: host, Port: port})
	rec.Allowed, rec.Rule = d.Allowed, d.Rule
	if !d.Allowed {
		p.finish(ctx, rec)
		socksReply(c, socksNotAllowed)
		return
	}
	rec.Addr = addr.String()
	up, err := p.dial(ctx, addr, port)
	if err != nil {
		rec.Error = err.Error()
		p.finish(ctx, rec)
		socksReply(c, socksRefused)
		return
	}
	defer up.Close()
	socksReply(c, socksSucceeded)
	rec.BytesOut, rec.BytesIn = p.pipe(ctx, c, up, buffered(br))
	p.finish(ctx, rec)
}

// readSocksRequest reads a request's command and destination; code is a SOCKS reply code.
func readSocksRequest(br *bufio.Reader) (host string, port int, code byte) {
	var h [4]byte
	if _, err := io.ReadFull(br, h[:]); err != nil || h[0] != socksVersion {
		return "", 0, socksHostUnreach
	}
	if h[1] != socksConnect {
		return "", 0, socksCmdUnsupp
	}
	switch h[3] {
	case socksIPv4, socksIPv6:
		n := 4
		if h[3] == socksIPv6 {
			n = 16
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return "", 0, socksHostUnreach
		}
		a, _ := netip.AddrFromSlice(b)
		host = a.Unmap().String()
	case socksDomain:
		l, err := br.ReadByte()
		if err != nil {
			return "", 0, socksHostUnreach
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(br, b); err != nil {
			return "", 0, socksHostUnreach
		}
		host = string(b)
	default:
		return "", 0, socksAddrUnsupp
	}
	var pb [2]byte
	if _, err := io.ReadFull(br, pb[:]); err != nil {
		return "", 0, socksHostUnreach
	}
	port = int(binary.BigEndian.Uint16(pb[:]))
	if port == 0 {
		return "", 0, socksNotAllowed
	}
	return host, port, socksSucceeded
}

// socksReply answers with code and a zero bound address.
func socksReply(c net.Conn, code byte) {
	_, _ = c.Write([]byte{socksVersion, code, 0, socksIPv4, 0, 0, 0, 0, 0, 0})
}

func containsByte(b []byte, x byte) bool {
	for _, y := range b {
		if y == x {
			return true
		}
	}
	return false
}
