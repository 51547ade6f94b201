package testkit

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// OTLPReceiver is a minimal OTLP/HTTP trace receiver: it decodes real export requests, so a test
// checks what an exporter really sent.
type OTLPReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.Span
	// more is closed (and replaced) each time spans arrive, to wake Await.
	more chan struct{}
}

// NewOTLPReceiver starts a receiver; point OTEL_EXPORTER_OTLP_ENDPOINT at its URL.
func NewOTLPReceiver() *OTLPReceiver {
	r := &OTLPReceiver{more: make(chan struct{})}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

func (r *OTLPReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var msg collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	for _, rs := range msg.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	close(r.more)
	r.more = make(chan struct{})
	r.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// Spans returns the spans received so far.
func (r *OTLPReceiver) Spans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...)
}

// Await returns the spans received once ok accepts them, waking on each export rather than
// polling; it gives up after within and returns what arrived, with false.
func (r *OTLPReceiver) Await(within time.Duration, ok func([]*tracepb.Span) bool) ([]*tracepb.Span, bool) {
	timeout := time.NewTimer(within)
	defer timeout.Stop()
	for {
		r.mu.Lock()
		spans, more := append([]*tracepb.Span(nil), r.spans...), r.more
		r.mu.Unlock()
		if ok(spans) {
			return spans, true
		}
		select {
		case <-more:
		case <-timeout.C:
			return spans, false
		}
	}
}

// ByName indexes spans by name (the last one of each name wins).
func ByName(spans []*tracepb.Span) map[string]*tracepb.Span {
	m := make(map[string]*tracepb.Span, len(spans))
	for _, s := range spans {
		m[s.Name] = s
	}
	return m
}
