package routing

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// fakeProvider serves fixed definitions; call decides each call's result.
type fakeProvider struct {
	source  tool.Source
	defs    []tool.Definition
	listErr error
	call    func(ctx context.Context, name string, args json.RawMessage) (tool.Result, error)

	calls    atomic.Int64
	lastArgs atomic.Value // json.RawMessage
	closed   atomic.Int64
	closeErr error
}

func (f *fakeProvider) Source() tool.Source { return f.source }

func (f *fakeProvider) ListTools(context.Context) ([]tool.Definition, error) {
	if f.listErr != nil {
		return nil, f.listErr
	}
	return f.defs, nil
}

func (f *fakeProvider) CallTool(ctx context.Context, name string, args json.RawMessage) (tool.Result, error) {
	f.calls.Add(1)
	f.lastArgs.Store(args)
	if f.call == nil {
		return tool.Text("ok " + name), nil
	}
	return f.call(ctx, name, args)
}

func (f *fakeProvider) Close() error {
	f.closed.Add(1)
	return f.closeErr
}

// def builds a definition from a schema literal.
func def(name string, src tool.Source, schema string) tool.Definition {
	return tool.Definition{Name: name, Description: name + " tool", InputSchema: json.RawMessage(schema), Source: src}
}

const readSchema = `{"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"integer","minimum":0},"limit":{"type":"integer"}},"required":["file_path"],"additionalProperties":false}`

// builtins is a provider with Read and Write.
func builtins() *fakeProvider {
	return &fakeProvider{source: tool.BuiltinSource, defs: []tool.Definition{
		def("Read", tool.BuiltinSource, readSchema),
		def("Write", tool.BuiltinSource, `{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"}},"required":["file_path","content"]}`),
	}}
}

// memSink collects records; fail makes Append fail.
type memSink struct {
	mu   sync.Mutex
	recs []activity.Record
	fail bool
}

func (m *memSink) Append(_ context.Context, r activity.Record) error {
	if m.fail {
		return errors.New("disk full")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, r)
	return nil
}

func (m *memSink) all() []activity.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]activity.Record(nil), m.recs...)
}
