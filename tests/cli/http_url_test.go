package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestHTTPRequestValuesStayInTheirURLPart runs http.request against a local server with hostile
// inputs: the path payload arrives as one segment, the query payload as one value, and nothing
// reaches another path; a header payload with a line break is refused before anything is sent.
func TestHTTPRequestValuesStayInTheirURLPart(t *testing.T) {
	var mu sync.Mutex
	var seen []*url.URL
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL)
		mu.Unlock()
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	wf := fmt.Sprintf(`name: fetch
inputs:
  - { name: id, type: string }
  - { name: q, type: string }
  - { name: h, type: string, default: "plain" }
states:
  initial: fetch
  fetch:
    type: operation
    operation: http.request
    inputs:
      method: GET
      url: "%s/items/{{.inputs.id}}?q={{.inputs.q}}&page=2"
      headers: { X-Id: "{{.inputs.h}}" }
    on_success: done
  done: { type: terminal }
`, srv.URL)
	dir := project(t, map[string]string{"fetch.yaml": wf})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	const id, q = "../../admin/delete?x=1#frag", "a&page=9"
	r := awf(t, dir, env, "run", "fetch", "-i", "id="+id, "-i", "q="+q)
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	got := seen
	mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("server saw %d requests: %v", len(got), got)
	}
	segs := strings.Split(got[0].EscapedPath(), "/")
	if len(segs) != 3 || segs[1] != "items" {
		t.Fatalf("server saw path %q: the payload is not one segment", got[0].EscapedPath())
	}
	if seg, _ := url.PathUnescape(segs[2]); seg != id {
		t.Errorf("the segment reads %q, want the payload %q", seg, id)
	}
	if v := got[0].Query(); v.Get("q") != q || v.Get("page") != "2" || len(v["page"]) != 1 {
		t.Errorf("server saw query %v, want q=%q and page=2 alone", v, q)
	}
	r = awf(t, dir, env, "run", "fetch", "-i", "id=1", "-i", "q=1", "-i", "h=1\r\nX-Admin: yes")
	if r.code == 0 || !strings.Contains(r.stderr, "USER.OPERATION.HEADER_VALUE") {
		t.Fatalf("a header with a line break: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if mu.Lock(); len(seen) != 1 {
		t.Errorf("a refused request reached the server: %v", seen)
	}
	mu.Unlock()
}

// TestValidateRefusesValueAsHost: a value that would choose the host is a validate error with
// the fix; marked raw, it is accepted.
func TestValidateRefusesValueAsHost(t *testing.T) {
	wf := `name: fetch
inputs:
  - { name: host, type: string }
states:
  initial: fetch
  fetch:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "https://{{.inputs.host}}/x" }
    on_success: done
  done: { type: terminal }
`
	dir := project(t, map[string]string{"fetch.yaml": wf, "raw.yaml": strings.Replace(wf, "{{.inputs.host}}", "{{raw .inputs.host}}", 1)})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "validate", "fetch")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "USER.TEMPLATE.URL_PLACE") || !strings.Contains(r.stdout+r.stderr, "raw") {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, env, "validate", "raw"); r.code != 0 {
		t.Fatalf("validate with raw: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
