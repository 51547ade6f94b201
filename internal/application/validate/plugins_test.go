package validate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// pcFakeRegistry declares plugins with fixed operations and counts what it is asked.
type pcFakeRegistry struct {
	decls     []ports.PluginDecl
	ops       map[string][]string
	startErr  map[string]error
	plugErr   error
	pluginsN  int
	opsCalled map[string]int
}

func (r *pcFakeRegistry) Plugins(context.Context) ([]ports.PluginDecl, error) {
	r.pluginsN++
	return r.decls, r.plugErr
}

func (r *pcFakeRegistry) Operations(_ context.Context, name string) ([]ports.PluginOperation, error) {
	if r.opsCalled == nil {
		r.opsCalled = map[string]int{}
	}
	r.opsCalled[name]++
	if err := r.startErr[name]; err != nil {
		return nil, err
	}
	var out []ports.PluginOperation
	for _, op := range r.ops[name] {
		out = append(out, ports.PluginOperation{Name: op})
	}
	return out, nil
}

func pcRegistry() *pcFakeRegistry {
	return &pcFakeRegistry{
		decls: []ports.PluginDecl{{Name: "echo"}, {Name: "notes"}, {Name: "a"}, {Name: "a_b"}, {Name: "off", Disabled: true, Pos: fault.Position{File: "plugins.yaml", Line: 9, Column: 3}}, {Name: "broken"}},
		ops: map[string][]string{
			"echo": {"echo"}, "notes": {"get", "list", "put", "delete"}, "a": {"b_c"}, "a_b": {"c"},
		},
		startErr: map[string]error{
			"broken": fault.New("EXECUTION.PLUGIN.START_FAILED", "plugin %q did not start within 10s", "broken").WithHint("run it by hand"),
		},
	}
}

const pcFile = "wf.yaml"

// pcEntry is a plugin_tools entry written on line `line` (plugin at column 17) with its operations
// on the next line, 10 columns apart.
func pcEntry(plugin string, line int, ops ...string) workflow.PluginTools {
	pt := workflow.PluginTools{Plugin: plugin, Expose: ops, Pos: fault.Position{File: pcFile, Line: line, Column: 17}}
	for j := range ops {
		pt.ExposePos = append(pt.ExposePos, fault.Position{File: pcFile, Line: line + 1, Column: 20 + 10*j})
	}
	return pt
}

func pcWorkflow(states ...*workflow.State) *workflow.Workflow {
	w := &workflow.Workflow{Name: "w", File: pcFile, States: map[string]*workflow.State{}}
	for _, s := range states {
		w.States[s.Name] = s
		w.Order = append(w.Order, s.Name)
	}
	return w
}

func pcAgent(name string, intercept bool, entries ...workflow.PluginTools) *workflow.State {
	return &workflow.State{Name: name, Type: workflow.StateAgent, Spec: &workflow.AgentSpec{MCPProxy: &workflow.MCPProxy{
		Enable: true, InterceptBuiltins: intercept, PluginTools: entries,
		Pos: fault.Position{File: pcFile, Line: 1, Column: 5},
	}}}
}

type pcWant struct {
	code      string
	line, col int
	text      string // in the message or the hint
}

func TestPluginCheck(t *testing.T) {
	tests := []struct {
		name string
		wf   *workflow.Workflow
		want []pcWant
	}{
		{"valid", pcWorkflow(pcAgent("s", true, pcEntry("echo", 10, "echo"), pcEntry("notes", 12, "get", "put"))), nil},
		{"unknown plugin", pcWorkflow(pcAgent("s", true, pcEntry("ecoh", 10, "echo"))), []pcWant{{fault.UserMCPProxyUnknownPlugin, 10, 17, "did you mean 'echo'?"}}},
		{"disabled plugin", pcWorkflow(pcAgent("s", true, pcEntry("off", 10, "x"))), []pcWant{{fault.UserMCPProxyPluginDisabled, 10, 17, "plugins.yaml:9:3"}}},
		{"unknown operation", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get", "delte"))), []pcWant{{fault.UserMCPProxyUnknownOperation, 11, 30, "did you mean 'delete'?"}}},
		{"unknown operation, nothing close", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "zzzzzz"))), []pcWant{{fault.UserMCPProxyUnknownOperation, 11, 20, "valid: get, list, put, delete"}}},
		{"operation exposed twice", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get", "list", "get"))), []pcWant{{fault.UserMCPProxyNameCollision, 11, 40, "exposes \"get\" twice"}}},
		{"same plugin twice, overlapping", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get", "list"), pcEntry("notes", 12, "put", "list"))),
			[]pcWant{{fault.UserMCPProxyNameCollision, 13, 30, "listed twice"}}},
		{"same plugin twice, disjoint", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get"), pcEntry("notes", 12, "put"))), nil},
		{"two plugins meet after namespacing", pcWorkflow(pcAgent("s", false, pcEntry("a", 10, "b_c"), pcEntry("a_b", 12, "c"))),
			[]pcWant{{fault.UserMCPProxyNameCollision, 13, 20, `tool "a_b_c"`}}},
		{"plugin that cannot start", pcWorkflow(pcAgent("s", true, pcEntry("broken", 10, "x"))), []pcWant{{"EXECUTION.PLUGIN.START_FAILED", 10, 17, "run it by hand"}}},
		{"every problem at once, in several states", pcWorkflow(
			pcAgent("one", true, pcEntry("ecoh", 10, "echo"), pcEntry("notes", 12, "gett")),
			pcAgent("two", true, pcEntry("notes", 20, "get", "get")),
		), []pcWant{
			{fault.UserMCPProxyUnknownPlugin, 10, 17, ""}, {fault.UserMCPProxyUnknownOperation, 13, 20, "did you mean 'get'?"}, {fault.UserMCPProxyNameCollision, 21, 30, ""},
		}},
		{"empty names are left to the workflow's own rules", pcWorkflow(pcAgent("s", true, pcEntry("", 10, "x"), pcEntry("notes", 12, "", " "))), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := PluginCheck(pcRegistry())(context.Background(), tt.wf)
			pcAssert(t, ds, tt.want)
		})
	}
}

func pcAssert(t *testing.T, ds fault.Diagnostics, want []pcWant) {
	t.Helper()
	var got, exp []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s@%d:%d", d.Code, d.Line, d.Column))
		if d.File != pcFile && d.File != "plugins.yaml" {
			t.Errorf("diagnostic %v has file %q", d, d.File)
		}
		if d.Severity != fault.SeverityError {
			t.Errorf("diagnostic %v is not an error", d)
		}
	}
	for _, w := range want {
		exp = append(exp, fmt.Sprintf("%s@%d:%d", w.code, w.line, w.col))
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, " ") != strings.Join(exp, " ") {
		t.Fatalf("diagnostics = %v, pcWant %v\n%v", got, exp, ds)
	}
	for _, w := range want {
		for _, d := range ds {
			if d.Code == w.code && d.Line == w.line && !strings.Contains(d.Message+" "+d.Hint, w.text) {
				t.Errorf("%s at %d:%d says %q / %q, pcWant %q", w.code, w.line, w.col, d.Message, d.Hint, w.text)
			}
		}
	}
}

func TestPluginCheckBuiltinCollision(t *testing.T) {
	saved := BuiltinTools
	t.Cleanup(func() { BuiltinTools = saved })
	BuiltinTools = append([]string{"notes_get"}, saved...) // a built-in named like a plugin tool
	w := pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get")))
	pcAssert(t, PluginCheck(pcRegistry())(context.Background(), w), []pcWant{{fault.UserMCPProxyNameCollision, 11, 20, "intercept_builtins: false"}})
	w = pcWorkflow(pcAgent("s", false, pcEntry("notes", 10, "get")))
	pcAssert(t, PluginCheck(pcRegistry())(context.Background(), w), nil)
}

func TestPluginCheckAsksOnlyWhenNeeded(t *testing.T) {
	reg := pcRegistry()
	off := pcAgent("off", true, pcEntry("ecoh", 10, "x"))
	off.Agent().MCPProxy.Enable = false
	noTools := pcAgent("builtins", true)
	cmd := &workflow.State{Name: "c", Type: workflow.StateCommand}
	if ds := PluginCheck(reg)(context.Background(), pcWorkflow(off, noTools, cmd)); len(ds) != 0 || reg.pluginsN != 0 {
		t.Errorf("diagnostics %v, pcRegistry read %d times: a workflow without plugin tools must not touch plugins", ds, reg.pluginsN)
	}
	w := pcWorkflow(pcAgent("a", true, pcEntry("notes", 10, "get")), pcAgent("b", true, pcEntry("notes", 20, "put")))
	if ds := PluginCheck(reg)(context.Background(), w); len(ds) != 0 {
		t.Fatal(ds)
	}
	if reg.pluginsN != 1 || reg.opsCalled["notes"] != 1 {
		t.Errorf("registry read %d times, notes asked %d times; pcWant once each", reg.pluginsN, reg.opsCalled["notes"])
	}
}

// pcFileError is an invalid plugins.yaml as the host reports it.
type pcFileError struct{ ds fault.Diagnostics }

func (e pcFileError) Error() string                  { return "plugins.yaml is invalid" }
func (e pcFileError) Diagnostics() fault.Diagnostics { return e.ds }

func TestPluginCheckBrokenPluginsFile(t *testing.T) {
	reg := pcRegistry()
	var ds fault.Diagnostics
	ds.Errorf(fault.Position{File: "plugins.yaml", Line: 3, Column: 5}, "USER.PLUGINS.UNKNOWN_KEY", "did you mean 'command'?", "unknown key")
	reg.plugErr = fault.Wrap(pcFileError{ds}, "USER.PLUGINS.INVALID", "plugins.yaml is invalid")
	w := pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get", "get")))
	// The file's own diagnostics are reported, and collisions (which need no pcRegistry) still are.
	pcAssert(t, PluginCheck(reg)(context.Background(), w), []pcWant{
		{"USER.PLUGINS.UNKNOWN_KEY", 3, 5, "did you mean 'command'?"}, {fault.UserMCPProxyNameCollision, 11, 30, ""},
	})

	reg.plugErr = errors.New("permission denied")
	pcAssert(t, PluginCheck(reg)(context.Background(), pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get")))), []pcWant{
		{fault.UserPluginsUnreadable, 10, 17, "permission denied"},
	})
}

func TestPluginCheckPositionFallbacks(t *testing.T) {
	s := pcAgent("s", true, workflow.PluginTools{Plugin: "ecoh", Expose: []string{"x"}})
	s.Agent().MCPProxy.ValuePos = map[string]fault.Position{"plugin_tools[0]": {File: pcFile, Line: 7, Column: 9}}
	pcAssert(t, PluginCheck(pcRegistry())(context.Background(), pcWorkflow(s)), []pcWant{{fault.UserMCPProxyUnknownPlugin, 7, 9, ""}})

	s = pcAgent("s", true, workflow.PluginTools{Plugin: "notes", Expose: []string{"nope"}})
	pcAssert(t, PluginCheck(pcRegistry())(context.Background(), pcWorkflow(s)), []pcWant{{fault.UserMCPProxyUnknownOperation, 1, 5, ""}})
}

func TestNear(t *testing.T) {
	from := fault.Position{File: pcFile, Line: 20, Column: 3}
	tests := []struct {
		p    fault.Position
		want string
	}{
		{fault.Position{File: pcFile, Line: 11, Column: 20}, "line 11, column 20"},
		{fault.Position{File: "other.yaml", Line: 11, Column: 20}, "other.yaml:11:20"},
		{fault.Position{File: pcFile}, pcFile}, // no line known: the file alone
	}
	for _, tt := range tests {
		if got := near(tt.p, from); got != tt.want {
			t.Errorf("near(%v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestPluginCheckCollisionTexts pins what each collision says, positions and entry numbers
// included: the user finds the other occurrence from these words.
func TestPluginCheckCollisionTexts(t *testing.T) {
	tests := []struct {
		name      string
		wf        *workflow.Workflow
		msg, hint string
	}{
		{"exposed twice", pcWorkflow(pcAgent("s", true, pcEntry("echo", 10, "echo"), pcEntry("notes", 12, "get", "get"))),
			`plugin_tools entry #2 of state "s" exposes "get" twice`, "remove the duplicate; it is first listed at line 13, column 20"},
		{"listed twice", pcWorkflow(pcAgent("s", true, pcEntry("notes", 10, "get"), pcEntry("notes", 12, "get"))),
			`plugin "notes" is listed twice in plugin_tools of state "s" and both entries expose "get" (tool "notes_get")`,
			`list plugin "notes" once and merge its expose lists; "get" is first exposed at line 11, column 20`},
		{"two plugins", pcWorkflow(pcAgent("s", false, pcEntry("a", 10, "b_c"), pcEntry("a_b", 12, "c"))),
			`tool "a_b_c" of state "s" would be served twice: by plugin "a" (operation "b_c") and plugin "a_b" (operation "c")`,
			"the other is at line 11, column 20; expose only one of them, or rename one plugin in .awf/plugins.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := PluginCheck(pcRegistry())(context.Background(), tt.wf)
			if len(ds) != 1 || ds[0].Message != tt.msg || ds[0].Hint != tt.hint {
				t.Fatalf("diagnostics = %+v\nwant message %q\nhint %q", ds, tt.msg, tt.hint)
			}
		})
	}
}

// TestPluginCheckFallbackCodesAndHints covers the errors that carry less than usual: no code, no
// diagnostics, no declared plugin to suggest.
func TestPluginCheckFallbackCodesAndHints(t *testing.T) {
	ctx := context.Background()
	one := func(reg *pcFakeRegistry, plugin string) fault.Diagnostic {
		t.Helper()
		ds := PluginCheck(reg)(ctx, pcWorkflow(pcAgent("s", true, pcEntry(plugin, 10, "x"))))
		if len(ds) != 1 {
			t.Fatalf("diagnostics = %v, want one", ds)
		}
		return ds[0]
	}

	reg := pcRegistry()
	reg.startErr["broken"] = errors.New("exec format error")
	d := one(reg, "broken")
	if d.Code != fault.ExecutionPluginStartFailed || d.Hint != "run the plugin's command by hand, and see awf's log for its output" ||
		d.Message != `cannot ask plugin "broken" for its operations (state "s"): exec format error` {
		t.Errorf("uncoded start failure = %+v", d)
	}

	// An invalid plugins.yaml that lists no diagnostic is still reported, with its own code.
	reg = pcRegistry()
	reg.plugErr = fault.Wrap(pcFileError{}, "USER.PLUGINS.INVALID", "plugins.yaml is invalid")
	if d := one(reg, "notes"); d.Code != "USER.PLUGINS.INVALID" || d.Line != 10 || !strings.Contains(d.Message, "cannot read the plugin declarations") {
		t.Errorf("invalid plugins.yaml without diagnostics = %+v", d)
	}

	// Nothing declared at all: say how to declare it rather than suggest nothing.
	reg = pcRegistry()
	reg.decls = nil
	if d := one(reg, "echo"); d.Code != fault.UserMCPProxyUnknownPlugin || d.Hint != "declare it in .awf/plugins.yaml: `plugins: {echo: {command: bin/plugins/echo}}`" {
		t.Errorf("unknown plugin with none declared = %+v", d)
	}
}
