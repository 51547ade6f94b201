// Package httpop is the built-in `http.request` operation of `operation:` states, with the
// reference awf's inputs (url, method, headers, body, timeout, retryable_status_codes) and
// outputs (status_code, body, headers, body_truncated), so its users' workflows run unchanged.
//
// Where it is stricter, on purpose: inputs of the wrong type are errors instead of being
// ignored, the body read is capped (a huge or endless response cannot exhaust memory), the
// timeout always applies (30 s unless given) and the step's context always wins.
package httpop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Name is the operation's name in workflows.
const Name = "http.request"

// Limits.
const (
	// MaxBody is how much of a response body is kept; the rest is discarded and body_truncated set.
	MaxBody = 1 << 20
	// DefaultTimeout applies when the state gives none.
	DefaultTimeout = 30 * time.Second
	// maxTimeout bounds the timeout input; the step's own timeout may be shorter.
	maxTimeout = time.Hour
	// maxRedirects bounds redirect chains.
	maxRedirects = 10
)

// Methods are the accepted methods, as the reference accepts them.
var Methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodHead}

// Runner serves http.request. The zero value uses a default client.
type Runner struct {
	// Client sends requests; nil means one with redirects bounded and no cookie jar.
	Client *http.Client
}

var _ ports.OperationRunner = Runner{}

// Specs implements ports.OperationRunner.
func (Runner) Specs() []ports.OperationSpec {
	return []ports.OperationSpec{{
		Name:        Name,
		Description: "Send an HTTP request and keep its status, headers and (capped) body",
		Inputs: []ports.OperationInput{
			{Name: "url", Type: "string", Required: true, Description: "http:// or https:// URL"},
			{Name: "method", Type: "string", Required: true, Description: strings.Join(Methods, ", ") + " (any case)"},
			{Name: "headers", Type: "object", Description: "request headers, name: value"},
			{Name: "body", Type: "string", Description: "request body as text"},
			{Name: "timeout", Type: "integer", Description: "seconds, default 30"},
			{Name: "retryable_status_codes", Type: "array", Description: "statuses that fail the state so `retry:` tries again"},
		},
		Outputs: []string{"status_code", "body", "headers", "body_truncated"},
	}}
}

// Run implements ports.OperationRunner. Problems with the inputs and with the exchange are
// failed results (the state's on_failure applies); no error is returned for them.
func (r Runner) Run(ctx context.Context, name string, inputs map[string]any) (ports.OperationResult, error) {
	if name != Name {
		return ports.OperationResult{}, fmt.Errorf("httpop serves %s, not %q", Name, name)
	}
	req, err := parse(inputs)
	if err != nil {
		return failed(err.Error(), nil), nil
	}
	ctx, cancel := context.WithTimeout(ctx, req.timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, req.method, req.url, bodyReader(req.body))
	if err != nil {
		return failed(Name+": "+err.Error(), nil), nil
	}
	for k, v := range req.headers {
		hreq.Header.Set(k, v)
	}
	resp, err := r.client().Do(hreq)
	if err != nil {
		return failed(describe(ctx, err, req.timeout), nil), nil
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := outputs(resp)
	if err != nil {
		return failed(describe(ctx, err, req.timeout), out), nil
	}
	if slices.Contains(req.retryable, resp.StatusCode) {
		return failed(fmt.Sprintf("%s: %s answered %d, a retryable status", Name, req.url, resp.StatusCode), out), nil
	}
	return ports.OperationResult{Success: true, Outputs: out}, nil
}

func (r Runner) client() *http.Client {
	if r.Client != nil {
		return r.Client
	}
	return defaultClient
}

var defaultClient = &http.Client{
	CheckRedirect: func(_ *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	},
}

func bodyReader(body string) io.Reader {
	if body == "" {
		return nil
	}
	return strings.NewReader(body)
}

// outputs reads at most MaxBody bytes of the body and notes whether more was sent.
func outputs(resp *http.Response) (map[string]any, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	truncated := len(b) > MaxBody
	if truncated {
		b = b[:MaxBody]
	}
	headers := make(map[string]any, len(resp.Header))
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		headers[k] = strings.Join(resp.Header.Values(k), ", ")
	}
	return map[string]any{
		"status_code":    resp.StatusCode,
		"body":           string(b),
		"headers":        headers,
		"body_truncated": truncated,
	}, err
}

func describe(ctx context.Context, err error, timeout time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("%s: no complete answer within %s", Name, timeout)
	}
	return Name + ": " + err.Error()
}

func failed(msg string, out map[string]any) ports.OperationResult {
	return ports.OperationResult{Success: false, Outputs: out, Error: msg}
}
