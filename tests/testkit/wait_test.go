package testkit

import (
	"bytes"
	"net/http"
	"os/exec"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

func TestReadFIFO(t *testing.T) {
	p := FIFO(t)
	cmd := exec.Command("sh", "-c", `echo "$$" > "$1"; echo done`, "sh", p)
	out := make(chan string, 1)
	go func() { b, _ := cmd.Output(); out <- string(b) }()
	got, err := ReadFIFO(p, 10*time.Second)
	if err != nil || got == "" || got[len(got)-1] != '\n' {
		t.Fatalf("ReadFIFO = %q, %v; want the shell's pid line", got, err)
	}
	if o := <-out; o != "done\n" {
		t.Fatalf("the writer did not go on after the rendezvous: %q", o)
	}

	start := time.Now()
	if got, err := ReadFIFO(FIFO(t), 50*time.Millisecond); err == nil || got != "" {
		t.Fatalf("ReadFIFO without a writer = %q, %v; want an error", got, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("ReadFIFO without a writer took %s", took)
	}
}

func TestEventually(t *testing.T) {
	n := 0
	if !Eventually(5*time.Second, func() bool { n++; return n >= 3 }) || n != 3 {
		t.Fatalf("Eventually stopped after %d looks, want 3", n)
	}
	start := time.Now()
	if Eventually(60*time.Millisecond, func() bool { return false }) {
		t.Fatal("Eventually reported a condition that never held")
	}
	if took := time.Since(start); took < 60*time.Millisecond || took > 5*time.Second {
		t.Fatalf("Eventually gave up after %s, want about 60ms", took)
	}
}

func TestOTLPReceiverAwaitWakesOnExport(t *testing.T) {
	r := NewOTLPReceiver()
	defer r.Close()
	want := func(spans []*tracepb.Span) bool { return ByName(spans)["late"] != nil }
	if _, ok := r.Await(30*time.Millisecond, want); ok {
		t.Fatal("Await accepted spans that never came")
	}
	body, _ := proto.Marshal(&collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{Name: "late"}}}},
	}}})
	go func() {
		resp, err := http.Post(r.URL+"/v1/traces", "application/x-protobuf", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
		}
	}()
	spans, ok := r.Await(10*time.Second, want)
	if !ok || len(spans) != 1 {
		t.Fatalf("Await = %d spans, %v; want the exported span", len(spans), ok)
	}
}
