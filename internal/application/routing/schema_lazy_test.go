package routing

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// verifiedProvider is a fakeProvider that promises its schemas compile.
type verifiedProvider struct{ *fakeProvider }

func (verifiedProvider) SchemasVerified() bool { return true }

func TestVerifiedSchemasCompileOnFirstCall(t *testing.T) {
	p := verifiedProvider{builtins()}
	p.defs = append(p.defs, def("Broken", tool.BuiltinSource, `{"type":"object","properties":{"a":{"type":7}}}`),
		tool.Definition{Name: "NoArgs", Source: tool.BuiltinSource})
	r, err := NewRouter(context.Background(), Options{}, p)
	if err != nil {
		t.Fatalf("a verified provider's schemas are not compiled at registration: %v", err)
	}
	if got := string(r.ListTools()[3].InputSchema); got != `{"type":"object"}` {
		t.Fatalf("a missing schema is listed as %s", got)
	}
	res := r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a","offset":-1}`))
	if !res.IsError || !strings.Contains(res.JoinedText(), "offset") {
		t.Fatalf("the lazily compiled schema did not validate: %+v", res)
	}
	if res := r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`)); res.IsError {
		t.Fatalf("a valid call failed: %+v", res)
	}
	res = r.CallTool(context.Background(), "Broken", json.RawMessage(`{}`))
	if !res.IsError || !strings.Contains(res.JoinedText(), "input schema cannot be used") || p.calls.Load() != 1 {
		t.Fatalf("a broken verified schema must fail the call before dispatch: %+v (calls %d)", res, p.calls.Load())
	}
	err = r.CompileSchemas()
	if fault.CodeOf(err) != fault.UserMCPProxyInvalidSchema || !strings.Contains(err.Error(), `"Broken"`) || strings.Contains(err.Error(), `"Read"`) {
		t.Fatalf("CompileSchemas: %v", err)
	}
}

func TestUnverifiedSchemasStillFailRegistration(t *testing.T) {
	p := builtins()
	p.defs = append(p.defs, def("Broken", tool.BuiltinSource, `{"type":"object","properties":{"a":{"type":7}}}`))
	if _, err := NewRouter(context.Background(), Options{}, p); fault.CodeOf(err) != fault.UserMCPProxyInvalidSchema {
		t.Fatalf("want INVALID_SCHEMA at registration, got %v", err)
	}
	r, err := NewRouter(context.Background(), Options{}, builtins())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.CompileSchemas(); err != nil {
		t.Fatalf("nothing deferred, nothing to report: %v", err)
	}
}

// closingSink is a memSink with a Close method, as the activity file's Appender has.
type closingSink struct {
	memSink
	closed int
	err    error
}

func (c *closingSink) Close() error {
	c.closed++
	return c.err
}

func TestCloseClosesAClosableActivitySinkOnce(t *testing.T) {
	sink := &closingSink{err: errors.New("sync failed")}
	r, err := NewRouter(context.Background(), Options{Activity: sink}, builtins())
	if err != nil {
		t.Fatal(err)
	}
	r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	err = r.Close()
	if sink.closed != 1 || err == nil || !strings.Contains(err.Error(), "closing the activity sink: sync failed") {
		t.Fatalf("closed %d times, err %v", sink.closed, err)
	}
	_ = r.Close()
	if sink.closed != 1 || len(sink.recs) != 1 {
		t.Fatalf("closed %d times, %d records", sink.closed, len(sink.recs))
	}
}

// Concurrent first calls compile the schema once and all see it (run with -race).
func TestLazySchemaConcurrentFirstCalls(t *testing.T) {
	r, err := NewRouter(context.Background(), Options{}, verifiedProvider{builtins()})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			args := `{"file_path":"a"}`
			if i%2 == 1 {
				args = `{"file_path":"a","offset":-1}`
			}
			if res := r.CallTool(context.Background(), "Read", json.RawMessage(args)); res.IsError != (i%2 == 1) {
				t.Errorf("call %d: %+v", i, res)
			}
		})
	}
	wg.Wait()
}
