package egressproxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/egress"
)

// recorder keeps the records a proxy hands over.
type recorder struct {
	mu   sync.Mutex
	recs []Record
}

func (r *recorder) add(_ context.Context, rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
}

func (r *recorder) all() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record{}, r.recs...)
}

// start serves a proxy with the lists on a loopback port and returns its address.
func start(t testing.TB, allow, deny []string, o Options) (string, *recorder) {
	t.Helper()
	rules, errs := egress.Parse(allow, deny)
	if errs != nil {
		t.Fatal(errs)
	}
	rec := &recorder{}
	o.Rules, o.Record = rules, rec.add
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(o).Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return l.Addr().String(), rec
}

func portOf(t testing.TB, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

func client(proxyAddr string, tlsConf *tls.Config) *http.Client {
	pu, _ := url.Parse("http://" + proxyAddr)
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: tlsConf, DisableKeepAlives: true}}
}

// waitRecords waits for n records: the proxy records a connection once it has ended.
func waitRecords(t *testing.T, r *recorder, n int) []Record {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if recs := r.all(); len(recs) >= n {
			return recs
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("got %d records, want %d: %+v", len(r.all()), n, r.all())
	return nil
}

func TestPlainHTTPAllowedAndRefused(t *testing.T) {
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "A %s %s %s conn=%s", r.Method, r.URL.Path, body, r.Header.Get("Connection"))
	}))
	defer a.Close()
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "B") }))
	defer b.Close()
	addr, rec := start(t, []string{"127.0.0.1:" + portOf(t, a.URL)}, nil, Options{})
	c := client(addr, nil)

	resp, err := c.Post(a.URL+"/up?secret=1", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "A POST /up hello conn=close" {
		t.Fatalf("A: %d %q", resp.StatusCode, body)
	}
	resp, err = c.Get(b.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "refused (not in the allow list)") || !strings.Contains(string(body), "network.allow") {
		t.Fatalf("B: %d %q", resp.StatusCode, body)
	}
	recs := waitRecords(t, rec, 2)
	ok, no := recs[0], recs[1] // in the order they ended, which need not be the order of the requests
	if !ok.Allowed {
		ok, no = no, ok
	}
	if !ok.Allowed || ok.Protocol != ProtoHTTP || ok.Method != "POST" || ok.Path != "/up" || ok.Addr != "127.0.0.1" ||
		ok.BytesOut < 5 || ok.BytesIn < int64(len("A POST /up hello")) || ok.Rule != "allow 127.0.0.1:"+portOf(t, a.URL) {
		t.Errorf("allowed record: %+v", ok)
	}
	if no.Allowed || no.Host != "127.0.0.1" || no.Port == 0 || no.Rule != egress.RuleNotListed || no.BytesIn != 0 || no.Addr != "" {
		t.Errorf("refused record: %+v", no)
	}
}

func TestConnectTLSByName(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret payload") }))
	defer srv.Close()
	port := portOf(t, srv.URL)
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "secure.example.test" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, fmt.Errorf("no such host %s", host)
	}
	cases := []struct {
		name  string
		allow []string
		ok    bool
		rule  string
	}{
		{"a name resolving to loopback is refused", []string{"*.example.test"}, false, "loopback address 127.0.0.1 (list it literally to allow it)"},
		{"listed literally it is allowed", []string{"*.example.test", "127.0.0.1:" + port}, true, "allow 127.0.0.1:" + port},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr, rec := start(t, tc.allow, nil, Options{Lookup: lookup})
			conf := srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
			conf.ServerName = "example.com" // httptest's certificate name
			resp, err := client(addr, conf).Get("https://secure.example.test:" + port + "/p")
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(body) != "secret payload" {
					t.Fatalf("body %q", body)
				}
			} else if err == nil || !strings.Contains(err.Error(), "Forbidden") {
				t.Fatalf("want a refused tunnel, got %v", err)
			}
			r := waitRecords(t, rec, 1)[0]
			if r.Allowed != tc.ok || r.Rule != tc.rule || r.Protocol != ProtoConnect || r.Host != "secure.example.test" || r.Method != "" || r.Path != "" {
				t.Errorf("record %+v", r)
			}
			if tc.ok && (r.BytesIn < 500 || r.BytesOut < 100) {
				t.Errorf("TLS bytes not counted: %+v", r)
			}
		})
	}
}

// socksDial is a minimal SOCKS5 client: CONNECT to host:port by name.
func socksDial(t *testing.T, proxyAddr, host string, port int) (net.Conn, byte) {
	t.Helper()
	c, err := net.Dial("tcp", proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	req := []byte{5, 1, 0, 5, 1, 0, 3, byte(len(host))}
	req = append(req, host...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	var reply [12]byte
	if _, err := io.ReadFull(c, reply[:12]); err != nil {
		t.Fatal(err)
	}
	if reply[0] != 5 || reply[1] != 0 {
		t.Fatalf("method reply % x", reply[:2])
	}
	return c, reply[3]
}

func TestSOCKS5(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "over socks") }))
	defer srv.Close()
	port, _ := strconv.Atoi(portOf(t, srv.URL))
	addr, rec := start(t, []string{"127.0.0.1:" + strconv.Itoa(port)}, []string{"evil.test"}, Options{})
	c, code := socksDial(t, addr, "127.0.0.1", port)
	if code != socksSucceeded {
		t.Fatalf("reply %d", code)
	}
	io.WriteString(c, "GET / HTTP/1.0\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	c.Close()
	if string(body) != "over socks" {
		t.Fatalf("body %q", body)
	}
	c, code = socksDial(t, addr, "evil.test", 443)
	c.Close()
	if code != socksNotAllowed {
		t.Fatalf("evil.test: reply %d, want %d", code, socksNotAllowed)
	}
	recs := waitRecords(t, rec, 2)
	var okRec, noRec Record
	for _, r := range recs {
		if r.Allowed {
			okRec = r
		} else {
			noRec = r
		}
	}
	if okRec.Protocol != ProtoSOCKS || okRec.BytesIn == 0 || okRec.BytesOut == 0 || noRec.Rule != "deny evil.test" || noRec.Host != "evil.test" {
		t.Errorf("records %+v", recs)
	}
}

// More connections than MaxConns wait for one to end; an idle tunnel is closed.
func TestLimits(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	target := echo.Addr().String()
	addr, _ := start(t, []string{target}, nil, Options{MaxConns: 2, IdleTimeout: 300 * time.Millisecond})
	open := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		return c, bufio.NewReader(c)
	}
	established := func(br *bufio.Reader, within time.Duration, c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(within))
		line, err := br.ReadString('\n')
		c.SetReadDeadline(time.Time{})
		if err != nil {
			return false
		}
		br.ReadString('\n')
		return strings.Contains(line, "200")
	}
	c1, b1 := open()
	c2, b2 := open()
	if !established(b1, 2*time.Second, c1) || !established(b2, 2*time.Second, c2) {
		t.Fatal("the first two tunnels did not open")
	}
	c3, b3 := open()
	defer c3.Close()
	if established(b3, 100*time.Millisecond, c3) {
		t.Fatal("a third tunnel opened past MaxConns 2")
	}
	c1.Close()
	if !established(b3, 2*time.Second, c3) {
		t.Fatal("the third tunnel did not open after the first closed")
	}
	// c2 has been idle: the proxy closes it.
	c2.SetReadDeadline(time.Now().Add(3 * time.Second))
	began := time.Now()
	if _, err := b2.ReadByte(); err != io.EOF {
		t.Fatalf("idle tunnel: %v, want EOF", err)
	}
	if time.Since(began) > 2500*time.Millisecond {
		t.Fatal("the idle tunnel stayed open too long")
	}
}

func TestBadRequests(t *testing.T) {
	addr, rec := start(t, []string{"example.test"}, nil, Options{})
	for _, c := range []struct{ req, want string }{
		{"GET /relative HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
		{"GET https://example.test/ HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
		{"CONNECT nohostport HTTP/1.1\r\n\r\n", "400"},
		{"CONNECT example.test:0 HTTP/1.1\r\n\r\n", "400"},
		{"GET http://a%20b/ HTTP/1.1\r\n\r\n", "400"},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, c.req)
		line, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if !strings.Contains(line, c.want) {
			t.Errorf("%q: %q, want %s", c.req, line, c.want)
		}
	}
	// A head past the limit is refused, not read forever.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(conn, "GET http://example.test/ HTTP/1.1\r\nX: ")
		io.Copy(conn, io.LimitReader(neverEnding('a'), 2<<20))
	}()
	line, _ := bufio.NewReader(conn).ReadString('\n')
	conn.Close()
	if !strings.Contains(line, "400") {
		t.Errorf("long head: %q", line)
	}
	for _, r := range rec.all() {
		if r.Allowed {
			t.Errorf("a bad request was allowed: %+v", r)
		}
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
