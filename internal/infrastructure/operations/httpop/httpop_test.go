package httpop

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func server(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestRequestRoundTrip(t *testing.T) {
	var gotMethod, gotBody, gotHeader string
	url := server(t, func(w http.ResponseWriter, r *http.Request) {
		gotMethod, gotHeader = r.Method, r.Header.Get("X-Token")
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":7}`)
	})
	res, err := Runner{}.Run(context.Background(), Name, map[string]any{
		"url": url + "/items", "method": "post", "body": `{"n":1}`,
		"headers": map[string]any{"X-Token": "t1"}, "timeout": "5",
	})
	if err != nil || !res.Success {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if gotMethod != "POST" || gotBody != `{"n":1}` || gotHeader != "t1" {
		t.Errorf("server saw %s %q header %q", gotMethod, gotBody, gotHeader)
	}
	if res.Outputs["status_code"] != 201 || res.Outputs["body"] != `{"id":7}` || res.Outputs["body_truncated"] != false {
		t.Errorf("outputs = %v", res.Outputs)
	}
	if h := res.Outputs["headers"].(map[string]any); h["X-Multi"] != "a, b" {
		t.Errorf("headers = %v", h)
	}
}

func TestNon2xxIsStillSuccessUnlessRetryable(t *testing.T) {
	url := server(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET"})
	if !res.Success || res.Outputs["status_code"] != 503 {
		t.Fatalf("a 503 without retryable_status_codes is an answer, not a failure: %+v", res)
	}
	res, _ = Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET", "retryable_status_codes": []any{429, 503}})
	if res.Success || !strings.Contains(res.Error, "503") || res.Outputs["status_code"] != 503 {
		t.Fatalf("a listed status fails the state and keeps the outputs: %+v", res)
	}
}

func TestBodyIsCapped(t *testing.T) {
	url := server(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 64<<10)
		for i := 0; i < 40; i++ { // 2.5 MiB
			_, _ = io.WriteString(w, chunk)
		}
	})
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET"})
	if !res.Success || len(res.Outputs["body"].(string)) != MaxBody || res.Outputs["body_truncated"] != true {
		t.Fatalf("body len %d truncated %v", len(res.Outputs["body"].(string)), res.Outputs["body_truncated"])
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	url := server(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	start := time.Now()
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET", "timeout": 1})
	if res.Success || !strings.Contains(res.Error, "within 1s") {
		t.Fatalf("res = %+v", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the timeout did not apply: %s", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, _ = Runner{}.Run(ctx, Name, map[string]any{"url": url, "method": "GET"})
	if res.Success {
		t.Fatal("a cancelled step's request must not succeed")
	}
}

func TestBadInputsAllAtOnce(t *testing.T) {
	tests := []struct {
		name  string
		in    map[string]any
		wants []string
	}{
		{"nothing", map[string]any{}, []string{"url must be", "method must be"}},
		{"file url", map[string]any{"url": "file:///etc/passwd", "method": "GET"}, []string{"url must be"}},
		{"no host", map[string]any{"url": "http://", "method": "GET"}, []string{"url must be"}},
		{"bad method", map[string]any{"url": "http://x", "method": "TRACE"}, []string{"method must be"}},
		{"typed wrong", map[string]any{"url": "http://x", "method": "GET", "body": 3, "headers": "a: b", "timeout": "soon"},
			[]string{"body must be text", "headers must be", "timeout must be"}},
		{"header value", map[string]any{"url": "http://x", "method": "GET", "headers": map[string]any{"A": 1}}, []string{`header "A" must be text`}},
		{"timeout too long", map[string]any{"url": "http://x", "method": "GET", "timeout": 7200}, []string{"timeout must be"}},
		{"timeout zero", map[string]any{"url": "http://x", "method": "GET", "timeout": 0}, []string{"timeout must be"}},
		{"statuses", map[string]any{"url": "http://x", "method": "GET", "retryable_status_codes": []any{99, 600, "x"}},
			[]string{"holds 99", "holds 600", "holds x"}},
		{"statuses not a list", map[string]any{"url": "http://x", "method": "GET", "retryable_status_codes": 503}, []string{"must be a list"}},
		{"unknown input", map[string]any{"url": "http://x", "method": "GET", "retries": 3}, []string{`unknown input "retries"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Runner{}.Run(context.Background(), Name, tt.in)
			if err != nil || res.Success {
				t.Fatalf("res = %+v, err = %v", res, err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(res.Error, w) {
					t.Errorf("error %q lacks %q", res.Error, w)
				}
			}
		})
	}
}

func TestHeaderInjectionRefused(t *testing.T) {
	url := server(t, func(w http.ResponseWriter, r *http.Request) { t.Error("a header with a newline must never be sent") })
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET",
		"headers": map[string]any{"X-A": "v\r\nX-Injected: 1"}})
	if res.Success {
		t.Fatal("header injection was sent")
	}
	// Refused as an input, with the fix, for a line break or NUL in the value or the name.
	for _, h := range []map[string]any{{"X-A": "v\r\nX-Injected: 1"}, {"X-A": "v\nw"}, {"X-A": "v\x00"}, {"X-A\r\nX-B": "v"}} {
		res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url, "method": "GET", "headers": h})
		if res.Success || !strings.Contains(res.Error, "line break or NUL") || !strings.Contains(res.Error, "in the body") {
			t.Errorf("headers %q: %+v", h, res)
		}
	}
}

func TestUnknownOperation(t *testing.T) {
	if _, err := (Runner{}).Run(context.Background(), "http.get", nil); err == nil {
		t.Fatal("another name is the caller's mistake")
	}
}

func TestSpecs(t *testing.T) {
	s := Runner{}.Specs()
	if len(s) != 1 || s[0].Name != Name || len(s[0].Outputs) != 4 {
		t.Fatalf("specs = %+v", s)
	}
	required := 0
	for _, in := range s[0].Inputs {
		if in.Required {
			required++
		}
	}
	if required != 2 {
		t.Errorf("url and method are required; %d inputs say so", required)
	}
}

func TestBoundaries(t *testing.T) {
	exact := server(t, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, strings.Repeat("y", MaxBody)) })
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": exact, "method": "GET",
		"timeout": 3600.0, "retryable_status_codes": []any{100, 599.0}})
	if !res.Success || res.Outputs["body_truncated"] != false || len(res.Outputs["body"].(string)) != MaxBody {
		t.Fatalf("a body of exactly MaxBody with the widest valid inputs: %+v", res.Error)
	}
	res, _ = Runner{}.Run(context.Background(), Name, map[string]any{"url": exact, "method": "GET", "timeout": 2.5})
	if res.Success {
		t.Fatal("a fractional timeout is refused")
	}
}

func TestRedirectLoopStops(t *testing.T) {
	var srvURL string
	srvURL = server(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, srvURL+"/again", http.StatusFound) })
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": srvURL, "method": "GET"})
	if res.Success || !strings.Contains(res.Error, "stopped after 10 redirects") {
		t.Fatalf("res = %+v", res)
	}
}

func TestOwnClientIsUsed(t *testing.T) {
	url := server(t, func(w http.ResponseWriter, r *http.Request) { t.Error("the given client must be used") })
	c := &http.Client{Transport: roundTripper(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 204, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
	})}
	res, _ := Runner{Client: c}.Run(context.Background(), Name, map[string]any{"url": url, "method": "DELETE"})
	if !res.Success || res.Outputs["status_code"] != 204 {
		t.Fatalf("res = %+v", res)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestOneRedirectIsFollowed(t *testing.T) {
	url := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		_, _ = io.WriteString(w, "moved here")
	})
	res, _ := Runner{}.Run(context.Background(), Name, map[string]any{"url": url + "/old", "method": "GET"})
	if !res.Success || res.Outputs["body"] != "moved here" {
		t.Fatalf("res = %+v", res)
	}
}
