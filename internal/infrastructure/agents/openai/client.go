package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Codes of the errors a model request can end in. All are EXECUTION errors (exit 3): the
// endpoint failed, the workflow file is not at fault.
const (
	maxErrorBodyBytes   = 64 << 10
	maxErrorDetailChars = 300
)

// RetryPolicy bounds the retries of rate-limited (429) and failed (5xx) requests. Nothing else
// is retried: a 4xx will fail again, and a stream cut in the middle is not resent because the
// model's work would be paid for twice.
type RetryPolicy struct {
	// Attempts is the total number of tries, first included. Default 3.
	Attempts int
	// BaseDelay is the first wait when the server gives no Retry-After; it doubles each time.
	// Default 1s.
	BaseDelay time.Duration
	// MaxDelay caps every wait. A Retry-After longer than this fails at once with a message
	// saying so, rather than holding the step silently. Default 30s.
	MaxDelay time.Duration
}

// DefaultRetryPolicy is what New uses unless WithRetryPolicy says otherwise.
var DefaultRetryPolicy = RetryPolicy{Attempts: 3, BaseDelay: time.Second, MaxDelay: 30 * time.Second}

// exchange is one model request: POST, with the bounded retries, and the whole answer read.
type exchange struct {
	p        *Provider
	s        Settings
	key      string
	body     []byte
	attempts int
	status   int
}

// do sends the request and reads the answer. Every error is a *fault.Error whose text never
// holds the API key.
func (x *exchange) do(ctx context.Context) (Turn, error) {
	policy := x.p.retry
	for attempt := 1; ; attempt++ {
		x.attempts = attempt
		t, retry, err := x.once(ctx)
		if err == nil {
			return t, nil
		}
		if retry == nil || attempt >= policy.Attempts {
			return Turn{}, x.redact(err)
		}
		wait, ok := retry.wait(attempt, policy)
		if !ok {
			return Turn{}, x.redact(err)
		}
		x.p.log.Warn("model request will be retried",
			zap.String("model", x.s.Model), zap.Int("status", x.status), zap.Int("attempt", attempt),
			zap.Duration("wait", wait), zap.String("error", x.redact(err).Error()))
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return Turn{}, x.cancelled(ctx)
		case <-timer.C:
		}
	}
}

// retryHint is a retryable failure: how long the server asked to wait, if it did.
type retryHint struct {
	after    time.Duration
	hasAfter bool
	err      *fault.Error
}

// wait returns the delay before the next attempt, or false when the server asks for longer than
// the policy allows (the error then says so).
func (r *retryHint) wait(attempt int, p RetryPolicy) (time.Duration, bool) {
	if r.hasAfter {
		if r.after > p.MaxDelay {
			r.err.Hint = fmt.Sprintf("the server asked to retry after %s, longer than awf waits (%s); try again later", r.after.Round(time.Second), p.MaxDelay)
			return 0, false
		}
		return max(r.after, 0), true
	}
	d := p.BaseDelay << (attempt - 1)
	if d > p.MaxDelay || d <= 0 {
		d = p.MaxDelay
	}
	return d, true
}

// once is one attempt. A non-nil retryHint means the failure may be retried.
func (x *exchange) once(ctx context.Context) (Turn, *retryHint, error) {
	reqCtx, cancel := context.WithTimeout(ctx, x.s.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, x.s.BaseURL+"/chat/completions", bytes.NewReader(x.body))
	if err != nil {
		return Turn{}, nil, fault.Wrap(err, fault.ExecutionAgentHTTP, "cannot build the request to %s", redactURL(x.s.BaseURL))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream, application/json")
	if x.key != "" {
		req.Header.Set("Authorization", "Bearer "+x.key)
	}
	resp, err := x.p.client.Do(req)
	if err != nil {
		return Turn{}, nil, x.transportError(ctx, reqCtx, err)
	}
	defer func() { _ = resp.Body.Close() }()
	x.status = resp.StatusCode
	if resp.StatusCode/100 != 2 {
		return x.statusError(resp)
	}
	t, err := readAnswer(resp.Body, resp.Header.Get("Content-Type"))
	if err != nil {
		return Turn{}, nil, x.answerError(ctx, reqCtx, err)
	}
	return t, nil, nil
}

// transportError explains a request that got no HTTP answer.
func (x *exchange) transportError(ctx, reqCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return x.cancelled(ctx)
	}
	if reqCtx.Err() != nil {
		return x.timeout(err)
	}
	where := redactURL(x.s.BaseURL)
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fault.New(fault.ExecutionAgentUnreachable, "the server at %s is not reachable: connection refused", where).
			WithHint("start the server, or fix options.base_url / %s", EnvBaseURL)
	case errors.As(err, &dnsErr):
		return fault.Wrap(err, fault.ExecutionAgentUnreachable, "the server at %s is not reachable: cannot resolve %q", where, dnsErr.Name).
			WithHint("check the host name in options.base_url / %s", EnvBaseURL)
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fault.Wrap(err, fault.ExecutionAgentUnreachable, "the server at %s is not reachable", where).
			WithHint("check that it is running and that options.base_url / %s is right", EnvBaseURL)
	}
	return fault.Wrap(err, fault.ExecutionAgentHTTP, "the request to %s failed", where)
}

// answerError explains a 2xx answer that could not be read.
func (x *exchange) answerError(ctx, reqCtx context.Context, err error) error {
	var me *malformedError
	var se *serverError
	var big *eventTooLargeError
	switch {
	case ctx.Err() != nil:
		return x.cancelled(ctx)
	case reqCtx.Err() != nil:
		return x.timeout(err)
	case errors.As(err, &me):
		return fault.New(fault.ExecutionAgentMalformedResponse, "the answer of %s (model %q) is not an OpenAI-compatible chat completion: %s", redactURL(x.s.BaseURL), x.s.Model, me.Error()).
			WithHint("check that base_url is the server's OpenAI-compatible API root (it usually ends in /v1)")
	case errors.As(err, &big):
		return fault.New(fault.ExecutionAgentEventTooLarge, "the stream of %s (model %q) was stopped: %s", redactURL(x.s.BaseURL), x.s.Model, big.Error()).
			WithHint("the server is broken or hostile: a real chat-completions stream sends small events, each ended by a blank line")
	case errors.As(err, &se):
		return fault.New(fault.ExecutionAgentServerError, "the server at %s reported an error for model %q: %s", redactURL(x.s.BaseURL), x.s.Model, se.msg)
	case errors.Is(err, errIncomplete):
		return fault.New(fault.ExecutionAgentIncompleteResponse, "the answer of %s (model %q) was cut short: %s", redactURL(x.s.BaseURL), x.s.Model, strings.TrimPrefix(err.Error(), errIncomplete.Error()+": ")).
			WithHint("the server or a proxy in between closed the connection early; check the server's log")
	}
	return fault.Wrap(err, fault.ExecutionAgentHTTP, "reading the answer of %s failed", redactURL(x.s.BaseURL))
}

func (x *exchange) timeout(err error) error {
	return fault.Wrap(err, fault.ExecutionAgentRequestTimeout, "model %q at %s gave no complete answer within request_timeout (%s)", x.s.Model, redactURL(x.s.BaseURL), x.s.RequestTimeout).
		WithHint("raise options.request_timeout, or use a smaller or faster model")
}

func (x *exchange) cancelled(ctx context.Context) error {
	return fault.Wrap(context.Cause(ctx), fault.ExecutionAgentCancelled, "the step ended while waiting for model %q at %s", x.s.Model, redactURL(x.s.BaseURL))
}

// statusError explains a non-2xx answer; 429 and 5xx come with a retryHint.
func (x *exchange) statusError(resp *http.Response) (Turn, *retryHint, error) {
	detail := errorDetail(resp.Body)
	where := redactURL(x.s.BaseURL)
	code := resp.StatusCode
	withDetail := func(msg string) string {
		if detail != "" {
			return msg + ": " + detail
		}
		return msg
	}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e := fault.New(fault.ExecutionAgentAuth, "%s", withDetail(fmt.Sprintf("the server at %s refused the credentials (%d)", where, code)))
		if x.key == "" {
			e.Hint = fmt.Sprintf("no API key was sent because $%s is empty or unset; export it, or name another variable with options.api_key_env", x.s.APIKeyEnv)
		} else {
			e.Hint = fmt.Sprintf("check the key in $%s (named by options.api_key_env) and its access to model %q", x.s.APIKeyEnv, x.s.Model)
		}
		return Turn{}, nil, e
	case code == http.StatusNotFound:
		return Turn{}, nil, fault.New(fault.ExecutionAgentNotFound, "%s", withDetail(fmt.Sprintf("model %q or base_url %s is wrong: POST %s/chat/completions answered 404", x.s.Model, where, where))).
			WithHint("base_url is the API root (usually ending in /v1); GET %s/models lists the models the server offers", where)
	case code == http.StatusTooManyRequests:
		e := fault.New(fault.ExecutionAgentRateLimited, "%s", withDetail(fmt.Sprintf("the server at %s rate-limited model %q (429) after %d attempt(s)", where, x.s.Model, x.attempts)))
		e.Hint = "wait and run again, or lower the request rate of other clients sharing the key"
		after, ok := retryAfter(resp.Header, time.Now())
		return Turn{}, &retryHint{after: after, hasAfter: ok, err: e}, e
	case code >= 500:
		e := fault.New(fault.ExecutionAgentServerError, "%s", withDetail(fmt.Sprintf("the server at %s failed (%d) for model %q after %d attempt(s)", where, code, x.s.Model, x.attempts)))
		e.Hint = "check the server's log; the request was retried with backoff"
		after, ok := retryAfter(resp.Header, time.Now())
		return Turn{}, &retryHint{after: after, hasAfter: ok, err: e}, e
	case code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		return Turn{}, nil, fault.New(fault.ExecutionAgentBadRequest, "%s", withDetail(fmt.Sprintf("the server at %s rejected the request for model %q (%d)", where, x.s.Model, code))).
			WithHint("the model may not support tool calling, or an option (temperature, max_tokens) is out of its range")
	}
	return Turn{}, nil, fault.New(fault.ExecutionAgentHTTPStatus, "%s", withDetail(fmt.Sprintf("the server at %s answered %d for model %q", where, code, x.s.Model)))
}

// redact removes the API key from an error's text, in case a server echoed it back.
func (x *exchange) redact(err error) error {
	if x.key == "" || len(x.key) < 4 {
		return err
	}
	var fe *fault.Error
	if !errors.As(err, &fe) {
		return err
	}
	if !strings.Contains(fe.Error(), x.key) {
		return fe
	}
	out := &fault.Error{Code: fe.Code, Pos: fe.Pos,
		Message: strings.ReplaceAll(fe.Message, x.key, "[redacted]"),
		Hint:    strings.ReplaceAll(fe.Hint, x.key, "[redacted]")}
	if fe.Err != nil {
		out.Err = errors.New(strings.ReplaceAll(fe.Err.Error(), x.key, "[redacted]"))
	}
	return out
}

// errorDetail reads the server's explanation from an error body: the message of an OpenAI
// error object, or the start of the text.
func errorDetail(body io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(body, maxErrorBodyBytes))
	var obj struct {
		Error *apiError `json:"error"`
	}
	msg := ""
	if json.Unmarshal(b, &obj) == nil && obj.Error != nil {
		msg = obj.Error.describe()
	} else {
		msg = strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "?")), " ")
	}
	if r := []rune(msg); len(r) > maxErrorDetailChars {
		msg = string(r[:maxErrorDetailChars]) + "…"
	}
	return msg
}

// retryAfter reads how long the server asks to wait: retry-after-ms (OpenAI), or Retry-After
// in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
