package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
)

// The golden files under testdata/ hold, byte for byte, the log lines, activity records and
// span attributes that the calls of TestCallBytesArePinned produced before the per-call path
// was optimised (docs/decisions/0015-performance-at-the-floor.md). The router, the redacting log encoder and the activity encoder may
// be made cheaper; what they write may not change.

const pinSecret = `Zq7-longValue/with+Symbols="9kLmN0pQ`

// pinProvider serves three tools whose results cover the recorded shapes: text, an error
// result, non-text blocks with structuredContent, and a sandboxed call.
type pinProvider struct{}

func (pinProvider) Source() tool.Source { return tool.BuiltinSource }

func (pinProvider) ListTools(context.Context) ([]tool.Definition, error) {
	yes, no := true, false
	return []tool.Definition{
		{Name: "Read", Description: "reads", Source: tool.BuiltinSource, Annotations: tool.Annotations{ReadOnlyHint: &yes},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["file_path"]}`)},
		{Name: "Write", Description: "writes", Source: tool.BuiltinSource, Annotations: tool.Annotations{DestructiveHint: &no},
			InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "Bash", Description: "runs", Source: tool.BuiltinSource, InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)},
		{Name: "Delete", Description: "deletes", Source: tool.BuiltinSource, Annotations: tool.Annotations{DestructiveHint: &yes},
			InputSchema: json.RawMessage(`{"type":"object"}`)},
	}, nil
}

func (pinProvider) CallTool(_ context.Context, name string, args json.RawMessage) (tool.Result, error) {
	switch {
	case strings.Contains(string(args), "fail-with-error"):
		return tool.Result{}, errors.New("provider broke: token " + pinSecret + " and ghp_" + strings.Repeat("A1b2", 9))
	case strings.Contains(string(args), "error-result"):
		return tool.Error("no such file <x> & \"y\"\n\tline two é \u2028 " + pinSecret[:12]), nil
	case name == "Bash":
		return tool.Result{Content: []tool.Content{{Type: "text", Text: "done"},
			{Type: "image", Raw: json.RawMessage(`{"type":"image","data":"aGVsbG8=","mimeType":"image/png"}`)}},
			Structured:  json.RawMessage(`{"exit":0}`),
			Confinement: &tool.Confinement{Enforced: true, ABI: 4, Policy: "write", Network: false, Reason: "x"}}, nil
	}
	return tool.Text("text of " + name), nil
}

func (pinProvider) Close() error { return nil }

// fixedIDs numbers traces and spans from 1.
type fixedIDs struct {
	mu sync.Mutex
	n  byte
}

func (g *fixedIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	return trace.TraceID{0xab, 15: g.n}, trace.SpanID{0xcd, 7: g.n}
}

func (g *fixedIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	return trace.SpanID{0xcd, 7: g.n}
}

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time                         { return c.t }
func (c fixedClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

// pinCall is one call of the pinned sequence.
type pinCall struct {
	split   bool // through the split-mode exposure
	traced  bool // under a recording tracer
	turn    int
	name    string
	args    string
	comment string
}

var pinCalls = []pinCall{
	{name: "Read", args: `{"file_path":"/root/a.txt"}`, comment: "plain success, the common call"},
	{name: "Read", args: `{"file_path":"/root/a.txt","offset":3,"limit":100}`, traced: true, turn: 2, comment: "traced, in a conversation turn"},
	{name: "Read", args: `{"file_path":"/r/<a&b>\"q\"\u0001é\u2028` + strings.ReplaceAll(pinSecret, `"`, `\"`) + `.txt","offset":1e21,"limit":2.5}`,
		comment: "escapes, a secret and odd numbers in the arguments: a schema error"},
	{name: "Read", args: `{"file_path":"error-result","deep":{"list":[1,true,null,"x",{"y":[]}],"empty":{}},"long":"` + strings.Repeat("é", 700) + `"}`,
		comment: "an error result, nested and truncated arguments"},
	{name: "Write", args: `{"file_path":"fail-with-error","content":"` + strings.Repeat("z", 1500) + `"}`, comment: "a provider error holding secrets"},
	{name: "Bash", args: `{"command":"ls"}`, traced: true, comment: "sandboxed, with content summaries"},
	{name: "Delete", args: `{"path":"x"}`, comment: "refused: destructive is not allowed"},
	{name: "Nope" + strings.Repeat("x", 300), args: `{}`, comment: "unknown tool, long name"},
	{name: "Read", args: `[1]`, comment: "arguments that are not an object"},
	{split: true, name: "call_tool_read", args: `{"name":"Read","args":{"file_path":"a"},"intent":{"operation_type":"read","data_sensitivity":"internal","reason":"look ` + pinSecret[:10] + `"}}`,
		traced: true, comment: "split mode with a declared intent"},
	{split: true, name: "call_tool_write", args: `{"name":"Read","args":{"file_path":"a"},"intent":{"operation_type":"write"}}`, comment: "split mode, variant mismatch"},
	{split: true, name: "call_tool_write", args: `{"name":"Bash","args":{"command":"make"},"intent":{"operation_type":"write","reason":"build"}}`,
		traced: true, comment: "sandboxed, with content summaries"},
	{split: true, name: "retrieve_tools", args: `{"query":"read"}`, comment: "answered by awf itself"},
	{split: true, name: "Read", args: `{"file_path":"a"}`, comment: "split mode, a tool by its own name"},
}

var recordID = regexp.MustCompile(`"id":"[0-9a-f]{32}"`)

func TestCallBytesArePinned(t *testing.T) {
	dir := t.TempDir()
	red := redact.New([]string{"DEPLOY_TOKEN=" + pinSecret, "HOME=/home/x"})
	logFile, actFile := filepath.Join(dir, "awf.log"), filepath.Join(dir, "activity.jsonl")
	logger, closeLog, err := logging.New(logging.Options{File: logFile, Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2030, 1, 2, 3, 4, 5, 123456789, time.UTC)
	logger = logger.WithOptions(zap.WithClock(fixedClock{start}))
	var mu sync.Mutex
	clock := start
	now := func() time.Time { // each reading advances 1.25 ms
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(1250 * time.Microsecond)
		return clock
	}
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans), sdktrace.WithIDGenerator(&fixedIDs{}))
	router, err := routing.NewRouter(context.Background(), routing.Options{
		Logger: logger, Tracer: tp.Tracer("pin"), RunID: "run-7", Step: "edit", Now: now, Redactor: red,
		Activity: &activitylog.Appender{Store: activitylog.FileStore{Path: actFile, Logger: logger, Redactor: red}},
	}, pinProvider{})
	if err != nil {
		t.Fatal(err)
	}
	allow := []tool.Variant{tool.VariantRead, tool.VariantWrite}
	direct := routing.NewExposure(router, routing.IntentSettings{Strict: true, Allow: allow})
	split := routing.NewExposure(router, routing.IntentSettings{Strict: true, Split: true, Allow: allow})
	for _, c := range pinCalls {
		ctx := context.Background()
		if c.turn > 0 {
			ctx = activity.WithTurn(ctx, c.turn)
		}
		var step trace.Span
		if c.traced {
			ctx, step = tp.Tracer("pin").Start(ctx, "step")
		}
		e := direct
		if c.split {
			e = split
		}
		e.CallTool(ctx, c.name, json.RawMessage(c.args))
		if step != nil {
			step.End()
		}
	}
	if err := router.Close(); err != nil {
		t.Fatal(err)
	}
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	logBytes, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	actBytes, err := os.ReadFile(actFile)
	if err != nil {
		t.Fatal(err)
	}
	ids := recordID.FindAll(actBytes, -1)
	if len(ids) != len(pinCalls) {
		t.Fatalf("%d record ids for %d calls:\n%s", len(ids), len(pinCalls), actBytes)
	}
	var spanText strings.Builder
	for _, s := range spans.Ended() {
		if s.Name() == "step" {
			continue
		}
		fmt.Fprintf(&spanText, "%s parent=%s status=%s %q\n", s.Name(), s.Parent().SpanID(), s.Status().Code, s.Status().Description)
		for _, kv := range s.Attributes() {
			fmt.Fprintf(&spanText, "  %s=%s:%q\n", kv.Key, kv.Value.Type(), kv.Value.String())
		}
	}
	checkGolden(t, "calls.log", logBytes)
	checkGolden(t, "calls.activity.jsonl", recordID.ReplaceAll(actBytes, []byte(`"id":"<random>"`)))
	checkGolden(t, "calls.spans.txt", []byte(spanText.String()))
}

// checkGolden compares got with testdata/<name>.golden. AWF_WRITE_GOLDEN=1 writes the file
// instead; the goldens were written once, before the code they pin was optimised.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if os.Getenv("AWF_WRITE_GOLDEN") == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) == string(want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs from its golden file at line %d:\ngot  %s\nwant %s", name, i+1, g, w)
		}
	}
}

// BenchmarkStepRouterCall is one Read through the exposure and router as a step's mcp-serve
// wires them (the log file through the redacting encoder, the activity file, a redactor over
// the environment, no span exporter), with a provider that answers at once: the router's own
// per-call bookkeeping.
func BenchmarkStepRouterCall(b *testing.B) {
	dir := b.TempDir()
	red := redact.New(os.Environ())
	logger, closeLog, err := logging.New(logging.Options{File: filepath.Join(dir, "awf.log"), Redactor: red})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = closeLog() }()
	router, err := routing.NewRouter(context.Background(), routing.Options{
		Logger: logger, RunID: "bench", Step: "agent", Redactor: red,
		Activity: &activitylog.Appender{Store: activitylog.FileStore{Path: filepath.Join(dir, "activity.jsonl"), Logger: logger, Redactor: red}},
	}, pinProvider{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = router.Close() }()
	e := routing.NewExposure(router, routing.IntentSettings{Strict: true})
	args := json.RawMessage(`{"file_path":"/tmp/awf-bench/root/file4k.txt"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := e.CallTool(ctx, "Read", args); res.IsError {
			b.Fatal(res.JoinedText())
		}
	}
}
