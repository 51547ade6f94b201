package routing

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

const nestedSchema = `{
  "type": "object",
  "$defs": {"edit": {"type": "object", "properties": {"old_string": {"type": "string", "minLength": 1}, "new_string": {"type": "string"}}, "required": ["old_string", "new_string"]}},
  "properties": {
    "file_path": {"type": "string"},
    "edits": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/edit"}},
    "mode": {"enum": ["fast", "safe"]},
    "options": {"type": "object", "properties": {"depth": {"type": "integer", "maximum": 5}}, "additionalProperties": false},
    "tag": {"type": "string", "pattern": "^[a-z]+$"},
    "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "size": {"anyOf": [{"enum": ["small"]}, {"type": "string", "pattern": "^[0-9]+$"}]},
    "both": {"oneOf": [{"type": "integer"}, {"type": "number"}]}
  },
  "required": ["file_path"]
}`

func newTestRouter(t *testing.T, opts Options, provs ...*fakeProvider) *Router {
	t.Helper()
	r, err := NewRouter(context.Background(), opts, toProviders(provs)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func TestCallToolRejectsBeforeDispatch(t *testing.T) {
	notes := tool.PluginSource("notes")
	tests := []struct {
		name string
		tool string
		args string
		want string
	}{
		{"unknown tool lists the tools", "Nope", `{}`, "tool Nope not found; available tools: Read, Write, MultiEdit"},
		{"unknown tool suggests by case", "read", `{}`, "tool read not found (did you mean Read?)"},
		{"unknown tool suggests by typo", "Wirte", `{}`, "(did you mean Write?)"},
		{"non-object arguments", "Read", `[1,2]`, "invalid arguments for Read: arguments must be a JSON object, got array"},
		{"string arguments", "Read", `"x"`, "arguments must be a JSON object, got string"},
		{"malformed JSON", "Read", `{"file_path":`, "invalid arguments for Read: arguments are not valid JSON"},
		{"wrong-typed argument", "Read", `{"file_path":"a","offset":"10"}`, "invalid arguments for Read: offset: expected integer, got string"},
		{"fractional integer", "Read", `{"file_path":"a","offset":1.5}`, "offset: expected integer, got number"},
		{"negative offset", "Read", `{"file_path":"a","offset":-1}`, "offset: -1 is less than the minimum 0"},
		{"missing required field", "Read", `{}`, "invalid arguments for Read: file_path: required field is missing"},
		{"null means no arguments, still validated", "Read", `null`, "file_path: required field is missing"},
		{"several missing fields", "Write", ``, "arguments: required fields are missing: file_path, content"},
		{"unknown field with suggestion", "Read", `{"file_path":"a","ofset":1}`, `ofset: unknown field (did you mean "offset"?); known fields: file_path, limit, offset`},
		{"nested array item through $ref", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y"},{"old_string":1,"new_string":"y"}]}`, "edits[1].old_string: expected string, got integer"},
		{"nested required", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"x"}]}`, "edits[0].new_string: required field is missing"},
		{"nested minLength", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"","new_string":"y"}]}`, "edits[0].old_string: must be at least 1 characters long, got 0"},
		{"minItems", "MultiEdit", `{"file_path":"a","edits":[]}`, "edits: must have at least 1 items, got 0"},
		{"enum", "MultiEdit", `{"file_path":"a","mode":"slow"}`, `mode: "slow" is not one of "fast", "safe"`},
		{"nested object maximum", "MultiEdit", `{"file_path":"a","options":{"depth":9}}`, "options.depth: 9 is greater than the maximum 5"},
		{"nested object unknown field", "MultiEdit", `{"file_path":"a","options":{"dpth":1}}`, `options.dpth: unknown field (did you mean "depth"?)`},
		{"pattern", "MultiEdit", `{"file_path":"a","tag":"ABC"}`, `tag: "ABC" does not match the pattern ^[a-z]+$`},
		{"oneOf by type", "MultiEdit", `{"file_path":"a","choice":true}`, "invalid arguments for MultiEdit: choice: expected string or integer, got boolean"},
		{"anyOf with reasons", "MultiEdit", `{"file_path":"a","size":"huge"}`, `size: matches none of the allowed forms: "huge" is not one of "small"; or "huge" does not match the pattern ^[0-9]+$`},
		{"oneOf matching twice falls back to the validator's words, with the field", "MultiEdit", `{"file_path":"a","both":5}`, "invalid arguments for MultiEdit: both: oneOf: validated against both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := builtins()
			p := &fakeProvider{source: notes, defs: []tool.Definition{def("MultiEdit", notes, nestedSchema)}}
			r := newTestRouter(t, Options{}, b, p)
			res := r.CallTool(context.Background(), tt.tool, json.RawMessage(tt.args))
			if !res.IsError {
				t.Fatalf("result is not an error: %q", res.JoinedText())
			}
			if !strings.Contains(res.JoinedText(), tt.want) {
				t.Errorf("message = %q\nwant it to contain %q", res.JoinedText(), tt.want)
			}
			if n := b.calls.Load() + p.calls.Load(); n != 0 {
				t.Errorf("provider called %d times; invalid calls must be rejected before dispatch", n)
			}
		})
	}
}

func TestCallToolDispatch(t *testing.T) {
	notes := tool.PluginSource("notes")
	tests := []struct {
		name     string
		call     func(ctx context.Context, name string, args json.RawMessage) (tool.Result, error)
		args     string
		cancel   bool
		wantErr  bool
		want     string
		wantArgs string
	}{
		{name: "success passes arguments through", args: ` {"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]} `,
			want: "ok MultiEdit", wantArgs: `{"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]}`},
		{name: "empty arguments become {}", args: ``, wantErr: false, want: "ok", wantArgs: `{}`,
			call: func(_ context.Context, _ string, args json.RawMessage) (tool.Result, error) {
				return tool.Text("ok"), nil
			}},
		{name: "tool-level error result is kept", args: `{}`, wantErr: true, want: "file not found",
			call: func(context.Context, string, json.RawMessage) (tool.Result, error) {
				return tool.Error("file not found"), nil
			}},
		{name: "provider error names the source", args: `{}`, wantErr: true, want: "plugin:notes failed: rpc error: connection reset",
			call: func(context.Context, string, json.RawMessage) (tool.Result, error) {
				return tool.Result{}, errors.New("rpc error: connection reset")
			}},
		{name: "panic is recovered as an awf bug", args: `{}`, wantErr: true, want: "This is an awf bug",
			call: func(context.Context, string, json.RawMessage) (tool.Result, error) { panic("index out of range") }},
		{name: "cancelled before dispatch", args: `{}`, cancel: true, wantErr: true, want: "cancelled"},
		{name: "cancelled during dispatch", args: `{}`, wantErr: true, want: "cancelled: the call to MultiEdit was stopped",
			call: func(ctx context.Context, _ string, _ json.RawMessage) (tool.Result, error) {
				cancelFromTest(ctx)
				<-ctx.Done()
				return tool.Result{}, ctx.Err()
			}},
		{name: "nil content becomes an empty array", args: `{}`, want: "",
			call: func(context.Context, string, json.RawMessage) (tool.Result, error) { return tool.Result{}, nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := `{"type":"object"}`
			if tt.wantArgs != "" && tt.wantArgs != "{}" {
				schema = nestedSchema
			}
			p := &fakeProvider{source: notes, defs: []tool.Definition{def("MultiEdit", notes, schema)}, call: tt.call}
			r := newTestRouter(t, Options{}, p)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			ctx = context.WithValue(ctx, cancelKey{}, cancel)
			res := r.CallTool(ctx, "MultiEdit", json.RawMessage(tt.args))
			if res.IsError != tt.wantErr {
				t.Fatalf("IsError = %v, want %v (%q)", res.IsError, tt.wantErr, res.JoinedText())
			}
			if !strings.Contains(res.JoinedText(), tt.want) {
				t.Errorf("text = %q, want it to contain %q", res.JoinedText(), tt.want)
			}
			if res.Content == nil {
				t.Error("Content is nil; MCP needs an array")
			}
			if tt.cancel && p.calls.Load() != 0 {
				t.Error("provider called with a cancelled context")
			}
			if tt.wantArgs != "" {
				if got, _ := p.lastArgs.Load().(json.RawMessage); string(got) != tt.wantArgs {
					t.Errorf("dispatched args = %s, want %s", got, tt.wantArgs)
				}
			}
		})
	}
}

type cancelKey struct{}

// cancelFromTest lets a fake provider cancel its own call, simulating Ctrl+C mid-call.
func cancelFromTest(ctx context.Context) {
	if c, ok := ctx.Value(cancelKey{}).(context.CancelFunc); ok {
		c()
	}
}

// refuseWrites is a Policy that refuses write calls, standing in for the intent rule.
type refuseWrites struct{}

func (refuseWrites) Decide(def tool.Definition, call CallInfo) Decision {
	v := tool.CallWith(def.Annotations)
	if v == tool.VariantWrite {
		return Decision{Intent: tool.Intent{Variant: v, Decision: DecisionRefuse}, Message: "Tool '" + def.Name + "' is not allowed"}
	}
	return Decision{Allow: true, Intent: tool.Intent{Variant: v, Decision: DecisionWarn, Warning: "read is watched"}}
}

func TestPolicyRefusalIsNotDispatchedAndIsRecorded(t *testing.T) {
	b := builtins()
	b.defs[0].Annotations = tool.Annotations{ReadOnlyHint: tool.Bool(true)}
	sink := &memSink{}
	r := newTestRouter(t, Options{Policy: refuseWrites{}, Activity: sink}, b)

	res := r.CallTool(context.Background(), "Write", json.RawMessage(`{"file_path":"a","content":"b"}`))
	if !res.IsError || res.JoinedText() != "Tool 'Write' is not allowed" || b.calls.Load() != 0 {
		t.Fatalf("refused call = %+v, provider calls %d", res, b.calls.Load())
	}
	res = r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	if res.IsError {
		t.Fatalf("allowed call failed: %q", res.JoinedText())
	}
	recs := sink.all()
	if len(recs) != 2 {
		t.Fatalf("got %d records, want 2", len(recs))
	}
	if recs[0].Outcome != activity.OutcomeRefused || recs[0].Intent.Decision != DecisionRefuse || recs[0].Intent.Variant != tool.VariantWrite {
		t.Errorf("refusal record = %+v", recs[0])
	}
	if recs[1].Outcome != activity.OutcomeSuccess || recs[1].Intent.Warning != "read is watched" || recs[1].Intent.Variant != tool.VariantRead {
		t.Errorf("warned record = %+v", recs[1])
	}
}

func TestAllowAllDerivesVariant(t *testing.T) {
	tests := []struct {
		ann  tool.Annotations
		want tool.Variant
	}{
		{tool.Annotations{}, tool.VariantWrite},
		{tool.Annotations{ReadOnlyHint: tool.Bool(true)}, tool.VariantRead},
		{tool.Annotations{ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(true)}, tool.VariantDestructive},
	}
	for _, tt := range tests {
		d := AllowAll{}.Decide(tool.Definition{Annotations: tt.ann}, CallInfo{})
		if !d.Allow || d.Intent.Variant != tt.want || d.Intent.Decision != DecisionAllow {
			t.Errorf("AllowAll(%+v) = %+v, want allowed %s", tt.ann, d, tt.want)
		}
	}
	d := AllowAll{}.Decide(tool.Definition{}, CallInfo{Declared: tool.Declaration{Variant: tool.VariantDestructive, Reason: "cleanup"}})
	if d.Intent.Variant != tool.VariantDestructive || d.Intent.Reason != "cleanup" {
		t.Errorf("declared intent not kept: %+v", d.Intent)
	}
}

func toProviders(provs []*fakeProvider) []ports.ToolProvider {
	out := make([]ports.ToolProvider, len(provs))
	for i, p := range provs {
		out[i] = p
	}
	return out
}
