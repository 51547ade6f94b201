package builtins

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/egressproxy"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
)

// egressRecords collects what the proxy records.
type egressRecords struct {
	mu   sync.Mutex
	recs []egressproxy.Record
}

func (e *egressRecords) add(_ context.Context, r egressproxy.Record) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.recs = append(e.recs, r)
}

func (e *egressRecords) all() []egressproxy.Record {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]egressproxy.Record{}, e.recs...)
}

// hostsLookup resolves names from a hosts file the test writes, as /etc/hosts would.
func hostsLookup(t *testing.T, lines string) func(context.Context, string) ([]netip.Addr, error) {
	path := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var out []netip.Addr
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			for _, name := range fields[min(1, len(fields)):] {
				if a, err := netip.ParseAddr(fields[0]); err == nil && name == host {
					out = append(out, a)
				}
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no such host %s", host)
		}
		return out, nil
	}
}

// egressProvider is a sandboxed provider whose Bash may reach only what allow lists.
func egressProvider(t *testing.T, allow []string, lookup func(context.Context, string) ([]netip.Addr, error)) (*Provider, *egressRecords) {
	t.Helper()
	self, _ := os.Executable()
	sandboxtest.Require(t, self)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed: the acceptance commands use it")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1") // an inherited proxy must be replaced
	recs := &egressRecords{}
	settings := sandbox.Settings{Mode: sandbox.ModeRequired, Egress: &sandbox.Egress{Allow: allow}}
	p, err := New(Options{Root: t.TempDir(), Sandbox: &SandboxOptions{Settings: settings, EgressRecord: recs.add, EgressLookup: lookup}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, recs
}

func serve(t *testing.T, body string) (*httptest.Server, string) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body+" "+r.URL.Path) }))
	t.Cleanup(s.Close)
	u, _ := url.Parse(s.URL)
	return s, u.Port()
}

func bashOut(t *testing.T, p *Provider, command string) (string, bool) {
	t.Helper()
	res := call(t, p, "Bash", map[string]any{"command": command})
	return res.JoinedText(), !res.IsError
}

func TestBashEgressAllowList(t *testing.T) {
	_, portA := serve(t, "server-A")
	_, portB := serve(t, "server-B")
	p, recs := egressProvider(t, []string{"127.0.0.1:" + portA}, nil)

	out, ok := bashOut(t, p, "curl -sS --max-time 10 http://127.0.0.1:"+portA+"/hello")
	if !ok || !strings.Contains(out, "server-A /hello") {
		t.Fatalf("curl to A through the proxy: ok=%v %s", ok, out)
	}
	out, ok = bashOut(t, p, "curl -sS --max-time 10 http://127.0.0.1:"+portB+"/x")
	if strings.Contains(out, "server-B") || !strings.Contains(out, "refused (not in the allow list)") {
		t.Fatalf("curl to B: ok=%v %s", ok, out)
	}
	for _, c := range []struct{ what, cmd string }{
		{"curl --noproxy", "curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:" + portA + "/"},
		{"bash /dev/tcp to A", "exec 3<>/dev/tcp/127.0.0.1/" + portA},
		{"bash /dev/tcp out", "exec 3<>/dev/tcp/1.1.1.1/80"},
		{"python socket out", "python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), 3)'"},
		{"python socket", "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + portA + "), 3)'"},
		{"DNS to a resolver", "python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(3); s.sendto(b\"\\0\"*12, (\"8.8.8.8\", 53)); s.recv(512)'"},
		{"name lookup", "getent hosts example.com"},
	} {
		if strings.HasPrefix(c.cmd, "python3") {
			if _, err := exec.LookPath("python3"); err != nil {
				continue
			}
		}
		out, ok := bashOut(t, p, c.cmd)
		t.Logf("%s: %s", c.what, out)
		if ok {
			t.Errorf("%s succeeded: %s", c.what, out)
		}
		if strings.Contains(out, "network: false") || strings.Contains(out, "command not found") || strings.Contains(out, "No module named") {
			t.Errorf("%s failed for another reason, or with the note of network: false: %s", c.what, out)
		}
	}
	var allowed, denied []egressproxy.Record
	for _, r := range recs.all() {
		if r.Allowed {
			allowed = append(allowed, r)
		} else {
			denied = append(denied, r)
		}
	}
	if len(allowed) != 1 || allowed[0].Method != "GET" || allowed[0].Path != "/hello" || allowed[0].BytesIn == 0 || allowed[0].BytesOut == 0 || allowed[0].Protocol != "http" {
		t.Errorf("allowed records: %+v", allowed)
	}
	if len(denied) != 1 || denied[0].Port == 0 || !strings.HasSuffix(portB, fmt.Sprint(denied[0].Port)) || denied[0].Rule != "not in the allow list" {
		t.Errorf("denied records: %+v", denied)
	}
}

func TestBashEgressNameToLoopback(t *testing.T) {
	_, portA := serve(t, "server-A")
	lookup := hostsLookup(t, "127.0.0.1 www.example.test\n")
	p, _ := egressProvider(t, []string{"*.example.test"}, lookup)
	out, _ := bashOut(t, p, "curl -sS --max-time 10 http://www.example.test:"+portA+"/")
	if strings.Contains(out, "server-A") || !strings.Contains(out, "loopback address 127.0.0.1") {
		t.Fatalf("a name resolving to loopback: %s", out)
	}
	p, _ = egressProvider(t, []string{"*.example.test", "127.0.0.1:" + portA}, lookup)
	if out, ok := bashOut(t, p, "curl -sS --max-time 10 http://www.example.test:"+portA+"/lit"); !ok || !strings.Contains(out, "server-A /lit") {
		t.Fatalf("listed literally: ok=%v %s", ok, out)
	}
	// SOCKS5 with the name resolved by the proxy (socks5h) takes the same path.
	if out, ok := bashOut(t, p, `curl -sS --max-time 10 -x "$ALL_PROXY" http://www.example.test:`+portA+"/socks"); !ok || !strings.Contains(out, "server-A /socks") {
		t.Fatalf("through ALL_PROXY: ok=%v %s", ok, out)
	}
}

func TestBashEgressHTTPSConnect(t *testing.T) {
	certPEM, srv := tlsServer(t, "secure.example.test", "a secret body")
	u, _ := url.Parse(srv.URL)
	lookup := hostsLookup(t, "127.0.0.1 secure.example.test\n")
	p, recs := egressProvider(t, []string{"secure.example.test", "127.0.0.1:" + u.Port()}, lookup)
	if err := os.WriteFile(filepath.Join(p.Root(), "ca.pem"), certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	out, ok := bashOut(t, p, "curl -sS --max-time 10 --cacert ca.pem https://secure.example.test:"+u.Port()+"/s")
	if !ok || !strings.Contains(out, "a secret body") {
		t.Fatalf("HTTPS through CONNECT: ok=%v %s", ok, out)
	}
	rs := recs.all()
	if len(rs) != 1 || !rs[0].Allowed || rs[0].Protocol != "connect" || rs[0].Host != "secure.example.test" || rs[0].BytesIn < 200 || rs[0].BytesOut < 100 || rs[0].Path != "" {
		t.Fatalf("records %+v", rs)
	}
}

// tlsServer serves body over TLS with a fresh self-signed certificate for name.
func tlsServer(t *testing.T, name, body string) ([]byte, *httptest.Server) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), srv
}

// Where the kernel cannot sandbox (mode auto), the warning says the list is not enforced; a bad
// entry is refused before anything starts.
func TestBashEgressUnenforcedAndInvalid(t *testing.T) {
	p := &Provider{sbx: &bashSandbox{status: sandbox.Status{Reason: "no Landlock"}, egress: &bashEgress{}}}
	if w := p.SandboxWarning(); !strings.Contains(w, "network allow list is not enforced") || !strings.Contains(w, "no Landlock") {
		t.Fatalf("warning %q", w)
	}
	p.sbx.egress = nil
	if w := p.SandboxWarning(); strings.Contains(w, "allow list") {
		t.Fatalf("warning without a list %q", w)
	}
	if _, err := newBashEgress(&sandbox.Egress{Allow: []string{"a.*.example"}}, egressproxy.Options{}); err == nil || !strings.Contains(err.Error(), "USER.SANDBOX.INVALID") {
		t.Fatalf("bad entry: %v", err)
	}
}
