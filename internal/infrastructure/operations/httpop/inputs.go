package httpop

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// request is http.request's inputs, checked.
type request struct {
	url, method, body string
	headers           map[string]string
	timeout           time.Duration
	retryable         []int
}

// parse checks every input and reports all problems at once.
func parse(in map[string]any) (request, error) {
	r := request{timeout: DefaultTimeout}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	known := []string{"url", "method", "headers", "body", "timeout", "retryable_status_codes"}
	for k := range in {
		if !slices.Contains(known, k) {
			bad("unknown input %q (inputs are %s)", k, strings.Join(known, ", "))
		}
	}
	r.url, _ = in["url"].(string)
	if u, err := url.Parse(r.url); r.url == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("url must be an http:// or https:// URL, got %q", r.url)
	}
	m, _ := in["method"].(string)
	r.method = strings.ToUpper(m)
	if !slices.Contains(Methods, r.method) {
		bad("method must be one of %s, got %q", strings.Join(Methods, ", "), m)
	}
	if v, ok := in["body"]; ok {
		if r.body, ok = v.(string); !ok {
			bad("body must be text, got %T", v)
		}
	}
	if v, ok := in["headers"]; ok && v != nil {
		hs, ok := v.(map[string]any)
		if !ok {
			bad("headers must be a mapping of name: value, got %T", v)
		}
		r.headers = map[string]string{}
		for k, hv := range hs {
			s, ok := hv.(string)
			if !ok {
				bad("header %q must be text, got %T", k, hv)
				continue
			}
			if strings.ContainsAny(k, "\r\n\x00") || strings.ContainsAny(s, "\r\n\x00") {
				bad("header %q holds a line break or NUL, which would add a header of its own: send multi-line data in the body", k)
				continue
			}
			r.headers[k] = s
		}
	}
	if v, ok := in["timeout"]; ok {
		n, ok := whole(v)
		if !ok || n <= 0 || time.Duration(n)*time.Second > maxTimeout {
			bad("timeout must be a whole number of seconds between 1 and %d, got %v", int(maxTimeout/time.Second), v)
		} else {
			r.timeout = time.Duration(n) * time.Second
		}
	}
	if v, ok := in["retryable_status_codes"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			bad("retryable_status_codes must be a list of status codes, got %T", v)
		}
		for _, c := range list {
			n, ok := whole(c)
			if !ok || n < 100 || n > 599 {
				bad("retryable_status_codes holds %v, not an HTTP status (100-599)", c)
				continue
			}
			r.retryable = append(r.retryable, int(n))
		}
	}
	if len(problems) > 0 {
		return r, fmt.Errorf("%s: %s", Name, strings.Join(problems, "; "))
	}
	return r, nil
}

// whole accepts the number types YAML decoding and templates produce.
func whole(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1e9 {
			return int64(n), true
		}
	case string:
		// A template such as "{{.inputs.timeout}}" renders to text.
		if i, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64); err == nil {
			return i, true
		}
	}
	return 0, false
}
