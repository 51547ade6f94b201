package pluginadapter

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// fakeOps is an OperationProvider with fixed operations that records calls.
type fakeOps struct {
	ops     []ports.PluginOperation
	listErr error
	calls   []string
	result  tool.Result
	execErr error
}

func (f *fakeOps) Operations(_ context.Context, plugin string) ([]ports.PluginOperation, error) {
	return f.ops, f.listErr
}

func (f *fakeOps) Execute(_ context.Context, plugin, op string, args json.RawMessage) (tool.Result, error) {
	f.calls = append(f.calls, plugin+"."+op+" "+string(args))
	return f.result, f.execErr
}

const richSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "key": {"type": "string", "pattern": "^[a-z]+$"},
    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "uniqueItems": true},
    "meta": {"type": "object", "properties": {
      "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal"},
      "limits": {"type": "object", "properties": {"max": {"type": "integer", "minimum": 1, "default": 10}}}
    }, "additionalProperties": false},
    "mode": {"oneOf": [{"const": "fast"}, {"const": "safe"}]}
  },
  "required": ["key"],
  "additionalProperties": false,
  "x-custom": {"kept": true}
}`

func TestListToolsMapsOperationsFaithfully(t *testing.T) {
	ro := tool.Annotations{Title: "Get", ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(false)}
	f := &fakeOps{ops: []ports.PluginOperation{
		{Name: "get", Description: "Read a note.", InputSchema: json.RawMessage(richSchema), OutputDescription: "The note as JSON.", Annotations: ro},
		{Name: "ping", InputSchema: nil},
		{Name: "drop", Description: "Delete.", InputSchema: json.RawMessage(`{"type":["object"]}`), Annotations: tool.Annotations{DestructiveHint: tool.Bool(true)}},
		{Name: "hidden", Description: "not exposed", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}}
	p := New(f, "notes", []string{"drop", "get", "ping"})
	defs, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
		if d.Source != tool.PluginSource("notes") {
			t.Errorf("%s source = %q, want plugin:notes", d.Name, d.Source)
		}
	}
	if strings.Join(names, ",") != "notes_drop,notes_get,notes_ping" {
		t.Fatalf("tools = %v, want the exposed operations in expose order", names)
	}
	get := defs[1]
	var gotSchema, wantSchema any
	_ = json.Unmarshal(get.InputSchema, &gotSchema)
	_ = json.Unmarshal([]byte(richSchema), &wantSchema)
	if !reflect.DeepEqual(gotSchema, wantSchema) {
		t.Errorf("schema changed on the way:\n%s", get.InputSchema)
	}
	if get.Description != "Read a note.\n\nReturns: The note as JSON." {
		t.Errorf("description = %q", get.Description)
	}
	if !reflect.DeepEqual(get.Annotations, ro) {
		t.Errorf("annotations = %+v, want %+v", get.Annotations, ro)
	}
	drop := defs[0]
	if !drop.Annotations.Destructive() || drop.Annotations.ReadOnlyHint != nil || drop.Annotations.IdempotentHint != nil {
		t.Errorf("unset hints must stay unset: %+v", drop.Annotations)
	}
	ping := defs[2]
	if string(ping.InputSchema) != `{"type":"object"}` || ping.Description != "Operation ping of plugin notes." || !ping.Annotations.IsZero() {
		t.Errorf("operation without schema/description/annotations = %+v", ping)
	}
}

// A bridged MCP server's tool keeps every field of its definition: its title, output schema,
// icons and _meta ride on the definition as sent, and its description is not trimmed.
func TestListToolsKeepsTheWholeMCPDefinition(t *testing.T) {
	op := ports.PluginOperation{Name: "forecast", Title: "Forecast", Description: "  Tomorrow's weather.\n", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","required":["t"]}`), Icons: json.RawMessage(`[{"src":"data:,x"}]`), Meta: json.RawMessage(`{"k":"v"}`)}
	defs, err := New(&fakeOps{ops: []ports.PluginOperation{op}}, "wx", []string{"forecast"}).ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d := defs[0]
	if d.Title != op.Title || d.Description != op.Description || string(d.OutputSchema) != string(op.OutputSchema) ||
		string(d.Icons) != string(op.Icons) || string(d.Meta) != string(op.Meta) {
		t.Errorf("definition = %+v, want the operation's fields unchanged: %+v", d, op)
	}
}

func TestListToolsRejectsBadSchemas(t *testing.T) {
	tests := []struct {
		schema, want string
	}{
		{`{"type":"object"`, "not valid JSON"},
		{`[{"type":"object"}]`, "must be a JSON object, got an array"},
		{`"object"`, "got a string"},
		{`{"properties":{}}`, `has no "type"`},
		{`{"type":"string"}`, `"type": "string"`},
		{`{"type":["object","null"]}`, `"type": ["object","null"]`},
	}
	for _, tt := range tests {
		f := &fakeOps{ops: []ports.PluginOperation{{Name: "op", InputSchema: json.RawMessage(tt.schema)}}}
		defs, err := New(f, "p", []string{"op"}).ListTools(context.Background())
		if err == nil {
			t.Errorf("schema %s accepted as %+v", tt.schema, defs)
			continue
		}
		if fault.CodeOf(err) != fault.UserMCPProxyInvalidSchema || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `operation "op" of plugin "p"`) {
			t.Errorf("schema %s: error %v, want %s mentioning %q", tt.schema, err, fault.UserMCPProxyInvalidSchema, tt.want)
		}
	}
}

func TestListToolsUnknownOperations(t *testing.T) {
	f := &fakeOps{ops: []ports.PluginOperation{{Name: "get"}, {Name: "list"}, {Name: "put"}, {Name: "bad", InputSchema: json.RawMessage(`1`)}}}
	_, err := New(f, "notes", []string{"gte", "list", "zzzzzz", "bad"}).ListTools(context.Background())
	if err == nil {
		t.Fatal("unknown operations accepted")
	}
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.UserMCPProxyUnknownOperation || fe.Hint != "did you mean 'get'?" {
		t.Fatalf("first error = %#v, want %s with did-you-mean", fe, fault.UserMCPProxyUnknownOperation)
	}
	for _, s := range []string{`no operation "gte"`, `no operation "zzzzzz"`, "valid: get, list, put, bad", fault.UserMCPProxyInvalidSchema} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not report %q (every problem at once):\n%v", s, err)
		}
	}

	empty := &fakeOps{}
	_, err = New(empty, "p", []string{"x"}).ListTools(context.Background())
	if !errors.As(err, &fe) || fe.Hint != "the plugin lists no operations" {
		t.Errorf("plugin without operations = %v", err)
	}
}

func TestListToolsPassesHostErrors(t *testing.T) {
	hostErr := fault.New(fault.UserMCPProxyUnknownPlugin, "plugin %q is not declared", "nope")
	_, err := New(&fakeOps{listErr: hostErr}, "nope", []string{"x"}).ListTools(context.Background())
	if !errors.Is(err, hostErr) {
		t.Errorf("ListTools = %v, want the host's error", err)
	}
}

func TestCallToolRoutesToTheOperation(t *testing.T) {
	f := &fakeOps{result: tool.Text("done")}
	p := New(f, "my_plugin", []string{"a_b", "c"})
	res, err := p.CallTool(context.Background(), "my_plugin_a_b", json.RawMessage(`{"x":1}`))
	if err != nil || res.JoinedText() != "done" {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	if len(f.calls) != 1 || f.calls[0] != `my_plugin.a_b {"x":1}` {
		t.Errorf("calls = %v", f.calls)
	}
	if _, err := p.CallTool(context.Background(), "my_plugin_zzz", nil); fault.CodeOf(err) != fault.SystemMCPProxyUnknownTool {
		t.Errorf("unknown tool = %v", err)
	}
	f.execErr = errors.New(`plugin "my_plugin" exited during the call`)
	if _, err := p.CallTool(context.Background(), "my_plugin_c", nil); !errors.Is(err, f.execErr) {
		t.Errorf("host error not passed through: %v", err)
	}
	if p.Close() != nil || p.Source() != "plugin:my_plugin" {
		t.Error("Close or Source wrong")
	}
}

func TestProviders(t *testing.T) {
	f := &fakeOps{ops: []ports.PluginOperation{{Name: "get"}, {Name: "put"}}}
	ps := Providers(f, []toolset.PluginTools{{Plugin: "notes", Expose: []string{"get"}}, {Plugin: "notes", Expose: []string{"get", "put"}}})
	if len(ps) != 2 {
		t.Fatalf("providers = %d, want one per entry", len(ps))
	}
	var all []string
	for _, p := range ps {
		defs, err := p.ListTools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range defs {
			all = append(all, d.Name)
		}
	}
	if strings.Join(all, ",") != "notes_get,notes_get,notes_put" {
		t.Errorf("tools = %v: a plugin listed twice must surface its overlap for the router's collision check", all)
	}
}

type countCloser struct{ n int }

func (c *countCloser) Close() error { c.n++; return nil }

func TestOwnedClosesTheHostWithTheLastProvider(t *testing.T) {
	c := &countCloser{}
	ps := Owned(c, &fakeOps{}, []toolset.PluginTools{{Plugin: "a", Expose: []string{"x"}}, {Plugin: "b", Expose: []string{"y"}}})
	if err := ps[0].Close(); err != nil || c.n != 0 {
		t.Fatalf("host closed after the first of two providers (%d)", c.n)
	}
	_ = ps[0].Close() // idempotent: does not count twice
	if c.n != 0 {
		t.Fatal("a second Close of one provider counted")
	}
	if err := ps[1].Close(); err != nil || c.n != 1 {
		t.Fatalf("host closed %d times after the last provider, want 1", c.n)
	}
	plain := New(&fakeOps{}, "a", nil)
	if err := plain.Close(); err != nil {
		t.Fatal(err)
	}
}
