package routing

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestNewRouterRegistrationErrors(t *testing.T) {
	notes := tool.PluginSource("notes")
	other := tool.PluginSource("other")
	tests := []struct {
		name      string
		providers func() []ports.ToolProvider
		code      string
		contains  []string
	}{
		{
			name: "several collisions reported at once with both sources",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{builtins(), &fakeProvider{source: notes, defs: []tool.Definition{
					def("Read", notes, `{"type":"object"}`),
					def("Write", notes, `{"type":"object"}`),
					def("notes_list", notes, `{"type":"object"}`),
				}}}
			},
			code: fault.UserMCPProxyNameCollision,
			contains: []string{
				"2 tool names are provided more than once",
				`tool "Read" is provided by both builtin and plugin:notes`,
				`tool "Write" is provided by both builtin and plugin:notes`,
				"hint:",
			},
		},
		{
			name: "three sources of one name",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{builtins(),
					&fakeProvider{source: notes, defs: []tool.Definition{def("Read", notes, `{"type":"object"}`)}},
					&fakeProvider{source: other, defs: []tool.Definition{def("Read", other, `{"type":"object"}`)}},
				}
			},
			code:     fault.UserMCPProxyNameCollision,
			contains: []string{`tool "Read" is provided by builtin, plugin:notes and plugin:other`},
		},
		{
			name: "one provider listing a name twice",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{&fakeProvider{source: notes, defs: []tool.Definition{
					def("x", notes, `{"type":"object"}`), def("x", notes, `{"type":"object"}`),
				}}}
			},
			code:     fault.UserMCPProxyNameCollision,
			contains: []string{`tool "x" is listed twice by plugin:notes`},
		},
		{
			name: "uncompilable schema names tool and source",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{&fakeProvider{source: notes, defs: []tool.Definition{
					def("ok", notes, `{"type":"object"}`),
					def("badref", notes, `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`),
					def("notobject", notes, `{"type":"string"}`),
					def("nojson", notes, `{"type":`),
					def("remote", notes, `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`),
					def("draft4", notes, `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`),
					def("baddefault", notes, `{"type":"object","properties":{"n":{"type":"integer","default":"x"}}}`),
				}}}
			},
			code: fault.UserMCPProxyInvalidSchema,
			contains: []string{
				`tool "badref" from plugin:notes has an input schema awf cannot use`,
				`tool "notobject" from plugin:notes`, `"type": "object"`,
				`tool "nojson" from plugin:notes`,
				`tool "remote" from plugin:notes`,
				`tool "draft4" from plugin:notes`, "draft-04",
				`tool "baddefault" from plugin:notes`,
			},
		},
		{
			name: "invalid tool names",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{&fakeProvider{source: notes, defs: []tool.Definition{
					def("", notes, `{"type":"object"}`), def("has space", notes, `{"type":"object"}`),
				}}}
			},
			code:     fault.UserMCPProxyInvalidTool,
			contains: []string{`tool "" from plugin:notes`, `tool "has space" from plugin:notes`, `character ' '`},
		},
		{
			name: "provider that cannot list is named",
			providers: func() []ports.ToolProvider {
				return []ports.ToolProvider{builtins(), &fakeProvider{source: notes, listErr: errors.New("plugin exited: status 2")}}
			},
			code:     fault.ExecutionMCPProxyListToolsFailed,
			contains: []string{"plugin:notes could not list its tools: plugin exited: status 2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			provs := tt.providers()
			r, err := NewRouter(context.Background(), Options{}, provs...)
			if err == nil {
				t.Fatalf("NewRouter succeeded with %d tools, want %s", len(r.ListTools()), tt.code)
			}
			if got := fault.CodeOf(err); got != tt.code {
				t.Fatalf("code = %q, want %q (err: %v)", got, tt.code, err)
			}
			for _, want := range tt.contains {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			for i, p := range provs {
				if n := p.(*fakeProvider).closed.Load(); n != 1 {
					t.Errorf("provider %d closed %d times after failed registration, want 1", i, n)
				}
			}
		})
	}
}

func TestCollisionErrorIsStructured(t *testing.T) {
	notes := tool.PluginSource("notes")
	_, err := NewRouter(context.Background(), Options{}, builtins(),
		&fakeProvider{source: notes, defs: []tool.Definition{def("Read", notes, `{"type":"object"}`)}})
	var ce *CollisionError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v does not wrap *CollisionError", err)
	}
	want := Collision{Tool: "Read", Sources: []tool.Source{tool.BuiltinSource, notes}}
	if len(ce.Collisions) != 1 || ce.Collisions[0].Tool != want.Tool || len(ce.Collisions[0].Sources) != 2 ||
		ce.Collisions[0].Sources[1] != notes {
		t.Fatalf("collisions = %+v, want [%+v]", ce.Collisions, want)
	}
	if strings.Count(err.Error(), `tool "Read"`) != 1 {
		t.Errorf("collision repeated in message: %v", err)
	}
	if fault.ExitCode(err) != fault.ExitUser {
		t.Errorf("exit code = %d, want %d", fault.ExitCode(err), fault.ExitUser)
	}
}

func TestRegistrationReportsEveryKindOfProblemJoined(t *testing.T) {
	notes := tool.PluginSource("notes")
	_, err := NewRouter(context.Background(), Options{}, builtins(),
		&fakeProvider{source: notes, defs: []tool.Definition{def("Read", notes, `{"type":"object"}`), def("bad", notes, `{"type":"array"}`)}})
	for _, code := range []string{fault.UserMCPProxyNameCollision, fault.UserMCPProxyInvalidSchema} {
		if !strings.Contains(err.Error(), code) {
			t.Errorf("joined error lacks %s: %v", code, err)
		}
	}
}

func TestListToolsOrderLookupAndDefaults(t *testing.T) {
	notes := tool.PluginSource("notes")
	plugin := &fakeProvider{defs: []tool.Definition{
		{Name: "notes_add", InputSchema: nil, Source: notes},
		{Name: "anon"}, // no source, no schema
	}}
	r, err := NewRouter(context.Background(), Options{}, builtins(), plugin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range r.ListTools() {
		names = append(names, d.Name)
	}
	if got, want := strings.Join(names, ","), "Read,Write,notes_add,anon"; got != want {
		t.Errorf("ListTools order = %s, want %s", got, want)
	}
	d, ok := r.Lookup("notes_add")
	if !ok || string(d.InputSchema) != `{"type":"object"}` || d.Source != notes {
		t.Errorf("Lookup(notes_add) = %+v, %v; want empty object schema from plugin:notes", d, ok)
	}
	if d, _ := r.Lookup("anon"); d.Source != "tool provider #2" {
		t.Errorf("source of a tool without one = %q, want the provider's position", d.Source)
	}
	if _, ok := r.Lookup("nope"); ok {
		t.Error("Lookup(nope) found a tool")
	}
	r.ListTools()[0].Name = "mutated"
	if r.ListTools()[0].Name != "Read" {
		t.Error("ListTools exposes the router's internal slice")
	}
}

func TestCloseClosesEveryProviderOnceAndJoinsErrors(t *testing.T) {
	a := builtins()
	a.closeErr = errors.New("a broke")
	b := &fakeProvider{source: tool.PluginSource("b"), closeErr: errors.New("b broke")}
	r, err := NewRouter(context.Background(), Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	err = r.Close()
	if err == nil || !strings.Contains(err.Error(), "closing builtin: a broke") || !strings.Contains(err.Error(), "closing plugin:b: b broke") {
		t.Fatalf("Close error = %v, want both providers named", err)
	}
	if err2 := r.Close(); err2 != err {
		t.Errorf("second Close = %v, want the same error", err2)
	}
	if a.closed.Load() != 1 || b.closed.Load() != 1 {
		t.Errorf("closed counts = %d, %d; want 1, 1", a.closed.Load(), b.closed.Load())
	}
	res := r.CallTool(context.Background(), "Read", []byte(`{"file_path":"x"}`))
	if !res.IsError || !strings.Contains(res.JoinedText(), "closed") || a.calls.Load() != 0 {
		t.Errorf("call after Close = %+v (provider calls %d), want a 'closed' error without dispatch", res, a.calls.Load())
	}
}

func TestNewRouterCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewRouter(ctx, Options{}, builtins())
	if fault.ExitCode(err) != fault.ExitInterrupted {
		t.Fatalf("err = %v, want an interrupt fault", err)
	}
}

func TestCheckNameBoundaries(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"aAzZ09_-.", true},
		{strings.Repeat("n", maxToolName), true},
		{strings.Repeat("n", maxToolName+1), false},
		{"", false},
		{"a`", false}, // the characters just outside each allowed range
		{"a{", false},
		{"a@", false},
		{"a[", false},
		{"a/", false},
		{"a:", false},
		{"a b", false},
		{"é", false},
	}
	for _, tt := range tests {
		if got := checkName(tt.name); (got == "") != tt.ok {
			t.Errorf("checkName(%.20q) = %q, want ok=%v", tt.name, got, tt.ok)
		}
	}
}

// TestFailedRegistrationClosesProvidersAndLogsOnlyRealCloseErrors: a router that cannot be built
// closes what it opened; a failing Close is logged, a clean one is not.
func TestFailedRegistrationClosesProvidersAndLogsOnlyRealCloseErrors(t *testing.T) {
	for _, closeErr := range []error{nil, errors.New("close failed")} {
		core, logs := observer.New(zapcore.DebugLevel)
		bad := &fakeProvider{source: tool.PluginSource("bad"), listErr: errors.New("cannot list"), closeErr: closeErr}
		good := builtins()
		_, err := NewRouter(context.Background(), Options{Logger: zap.New(core)}, toProviders([]*fakeProvider{good, bad})...)
		if err == nil {
			t.Fatal("NewRouter succeeded with a provider that cannot list its tools")
		}
		if good.closed.Load() != 1 || bad.closed.Load() != 1 {
			t.Errorf("providers closed %d and %d times, want once each", good.closed.Load(), bad.closed.Load())
		}
		logged := logs.FilterMessage("closing tool providers after a failed registration").Len()
		if want := map[bool]int{false: 0, true: 1}[closeErr != nil]; logged != want {
			t.Errorf("close error %v: logged %d times, want %d", closeErr, logged, want)
		}
	}
}
