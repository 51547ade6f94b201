package egressproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkEgressProxy measures what the proxy costs against a direct connection in the same
// run, in alternating rounds so that load on the machine falls on both alike: the p50 of a
// loopback HTTP request (a new connection each, as the proxy makes one per request), and the
// throughput of a 1 GiB transfer through a CONNECT tunnel. It reports the added p50 in ms and
// the throughput ratio (proxied / direct); the targets are under 1 ms and at least 0.95
// (docs/decisions/0028-egress-proxy.md). Run it with -benchtime=1x.
func BenchmarkEgressProxy(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	bulk := bulkServer(b, 1<<30)
	defer bulk.Close()
	addr, _ := start(b, []string{"127.0.0.1"}, nil, Options{})
	proxied, direct := client(addr, nil), &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	const rounds, perRound = 6, 200
	var latP, latD []time.Duration
	var bpsP, bpsD float64
	for i := 0; i < b.N; i++ {
		for r := 0; r < rounds; r++ {
			latD = append(latD, requests(b, direct, srv.URL, perRound)...)
			latP = append(latP, requests(b, proxied, srv.URL, perRound)...)
		}
		for r := 0; r < 2; r++ {
			bpsD += transfer(b, "", bulk.Addr().String())
			bpsP += transfer(b, addr, bulk.Addr().String())
		}
	}
	added := median(latP) - median(latD)
	b.ReportMetric(float64(added.Microseconds())/1000, "p50-added-ms")
	b.ReportMetric(float64(median(latD).Microseconds())/1000, "p50-direct-ms")
	b.ReportMetric(bpsP/bpsD, "throughput-ratio")
	b.ReportMetric(bpsD/float64(2*b.N)/(1<<20), "direct-MiB/s")
}

func requests(b *testing.B, c *http.Client, url string, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		resp, err := c.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out = append(out, time.Since(t0))
	}
	return out
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// bulkServer writes size bytes to each connection.
func bulkServer(b *testing.B, size int64) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 256<<10)
				for left := size; left > 0; left -= int64(len(buf)) {
					if _, err := c.Write(buf[:min(left, int64(len(buf)))]); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l
}

// transfer reads the bulk server's bytes, through the proxy's CONNECT when proxy is set, and
// returns bytes per second.
func transfer(b *testing.B, proxy, target string) float64 {
	t0 := time.Now()
	var c net.Conn
	var err error
	var r io.Reader
	if proxy == "" {
		c, err = net.Dial("tcp", target)
		r = c
	} else {
		c, err = net.Dial("tcp", proxy)
		if err == nil {
			fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\n\r\n", target)
			br := bufio.NewReaderSize(c, 64<<10)
			line, _ := br.ReadString('\n')
			if !strings.Contains(line, "200") {
				b.Fatalf("CONNECT: %q", line)
			}
			br.ReadString('\n')
			r = io.MultiReader(bytes.NewReader(buffered(br)), c) // the rest read as the direct one is

		}
	}
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	n, err := io.CopyBuffer(io.Discard, r, make([]byte, 256<<10))
	if err != nil || n != 1<<30 {
		b.Fatalf("read %d: %v", n, err)
	}
	return float64(n) / time.Since(t0).Seconds()
}
