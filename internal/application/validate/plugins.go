package validate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// BuiltinTools are the names of awf's built-in tools, served when a step intercepts built-ins;
// a plugin tool may not take one of them.
var BuiltinTools = []string{"Read", "Write", "Edit", "Bash", "Glob", "Grep"}

// PluginCheck checks every enabled mcp_proxy's plugin_tools against the plugins actually
// declared and the operations they actually list, starting them through reg to ask:
//
//   - USER.MCP_PROXY.UNKNOWN_PLUGIN: the plugin is not declared (did-you-mean);
//   - USER.MCP_PROXY.PLUGIN_DISABLED: it is declared with disabled: true;
//   - USER.MCP_PROXY.UNKNOWN_OPERATION: the running plugin does not list the operation
//     (did-you-mean);
//   - USER.MCP_PROXY.NAME_COLLISION: two tools of the step get one name — an operation exposed
//     twice, the same plugin listed twice with overlapping operations, two plugins whose
//     <plugin>_<operation> names meet, or a built-in when intercept_builtins is on;
//
// each at the file:line:col of the plugin or operation name. A plugin that cannot start is
// reported at its entry with the host's code. A plugins.yaml with errors contributes its own
// diagnostics. The registry is consulted only when some step exposes plugin tools.
func PluginCheck(reg ports.PluginRegistry) Check {
	return func(ctx context.Context, wf *workflow.Workflow) fault.Diagnostics {
		c := &pluginChecker{reg: reg, ops: map[string]opsResult{}}
		for _, name := range wf.Order {
			s := wf.States[name]
			if s == nil || s.Agent() == nil || s.Agent().MCPProxy == nil || !s.Agent().MCPProxy.Enable {
				continue
			}
			c.state(ctx, s, s.Agent().MCPProxy)
		}
		return c.ds
	}
}

type opsResult struct {
	names []string
	err   error
}

// origin is where a tool name was first taken in a step.
type origin struct {
	builtin bool
	plugin  string
	op      string
	entry   int
	pos     fault.Position
}

type pluginChecker struct {
	reg ports.PluginRegistry
	ds  fault.Diagnostics

	loaded  bool
	decls   map[string]ports.PluginDecl
	names   []string
	readErr bool // plugins.yaml could not be read: plugin and operation checks are skipped
	ops     map[string]opsResult
}

// load reads the declarations once, reporting a broken plugins.yaml at pos when it says
// nothing more precise.
func (c *pluginChecker) load(ctx context.Context, pos fault.Position) {
	if c.loaded {
		return
	}
	c.loaded = true
	decls, err := c.reg.Plugins(ctx)
	if err != nil {
		c.readErr = true
		var de ports.DiagnosticsError
		if errors.As(err, &de) && len(de.Diagnostics()) > 0 {
			c.ds = append(c.ds, de.Diagnostics()...)
			return
		}
		code := fault.CodeOf(err)
		if code == "" {
			code = fault.UserPluginsUnreadable
		}
		c.ds.Errorf(pos, code, "fix .awf/plugins.yaml so awf can check this step's plugins", "cannot read the plugin declarations: %v", err)
		return
	}
	c.decls = make(map[string]ports.PluginDecl, len(decls))
	for _, d := range decls {
		c.decls[d.Name] = d
		c.names = append(c.names, d.Name)
	}
}

func (c *pluginChecker) operations(ctx context.Context, plugin string) opsResult {
	if r, ok := c.ops[plugin]; ok {
		return r
	}
	var r opsResult
	ops, err := c.reg.Operations(ctx, plugin)
	if err != nil {
		r.err = err
	}
	for _, op := range ops {
		r.names = append(r.names, op.Name)
	}
	c.ops[plugin] = r
	return r
}

func (c *pluginChecker) state(ctx context.Context, s *workflow.State, m *workflow.MCPProxy) {
	taken := map[string]origin{}
	if m.InterceptBuiltins {
		for _, b := range BuiltinTools {
			taken[b] = origin{builtin: true}
		}
	}
	for i, pt := range m.PluginTools {
		plugin := strings.TrimSpace(pt.Plugin)
		if plugin == "" {
			continue // MISSING_PLUGIN, reported by the workflow's own validation
		}
		ppos := pluginPos(m, pt, i)
		c.load(ctx, ppos)
		known, listed := c.plugin(ctx, s, plugin, ppos)
		var exposed []string
		named := map[string]bool{}
		for j, op := range pt.Expose {
			op = strings.TrimSpace(op)
			if op == "" {
				continue // EMPTY_EXPOSE, reported by the workflow's own validation
			}
			pos := exposePos(m, pt, i, j)
			ops := []string{op}
			if isGlob(op) {
				ops = matching(op, listed)
				if listed != nil && len(ops) == 0 {
					c.ds.Errorf(pos, fault.UserMCPProxyUnknownOperation, operationHint(op, listed),
						"no operation of plugin %q matches %q (state %q)", plugin, op, s.Name)
					continue
				}
			}
			if listed != nil && !isGlob(op) && !contains(listed, op) {
				c.ds.Errorf(pos, fault.UserMCPProxyUnknownOperation, operationHint(op, listed),
					"plugin %q does not list operation %q (state %q)", plugin, op, s.Name)
				continue
			}
			if !known {
				continue
			}
			for _, o := range ops {
				c.collision(s, taken, ToolName(plugin, o), origin{plugin: plugin, op: o, entry: i, pos: pos})
			}
			exposed = append(exposed, ops...)
			named[op] = !isGlob(op)
		}
		c.pins(ctx, s, plugin, ppos, known && listed != nil, exposed)
		if known && listed != nil {
			c.scan(ctx, s, m, plugin, ppos, exposed, named)
		}
	}
}

// plugin checks one plugin name: known reports whether tools may be named after it, listed is
// what it lists (nil when unknown).
func (c *pluginChecker) plugin(ctx context.Context, s *workflow.State, plugin string, pos fault.Position) (known bool, listed []string) {
	if c.readErr {
		return true, nil
	}
	decl, ok := c.decls[plugin]
	switch {
	case !ok:
		hint := "declare it in .awf/plugins.yaml: `plugins: {" + plugin + ": {command: bin/plugins/" + plugin + "}}`"
		if len(c.names) > 0 {
			hint = suggest.DidYouMean(plugin, c.names)
		}
		c.ds.Errorf(pos, fault.UserMCPProxyUnknownPlugin, hint, "plugin %q of state %q is not declared in .awf/plugins.yaml", plugin, s.Name)
		return false, nil
	case decl.Disabled:
		c.ds.Errorf(pos, fault.UserMCPProxyPluginDisabled, fmt.Sprintf("remove `disabled: true` from its declaration at %s, or stop using it here", decl.Pos),
			"plugin %q of state %q is disabled", plugin, s.Name)
		return false, nil
	}
	if c.remoteWithoutNetwork(s, plugin, decl, pos) {
		return false, nil
	}
	r := c.operations(ctx, plugin)
	if r.err != nil {
		code := fault.CodeOf(r.err)
		if code == "" {
			code = fault.ExecutionPluginStartFailed
		}
		var fe *fault.Error
		hint := "run the plugin's command by hand, and see awf's log for its output"
		if errors.As(r.err, &fe) && fe.Hint != "" {
			hint = fe.Hint
		}
		c.ds.Errorf(pos, code, hint, "cannot ask plugin %q for its operations (state %q): %s", plugin, s.Name, message(r.err))
		return true, nil
	}
	if r.names == nil {
		r.names = []string{}
	}
	return true, r.names
}

func (c *pluginChecker) collision(s *workflow.State, taken map[string]origin, name string, o origin) {
	prev, dup := taken[name]
	if !dup {
		taken[name] = o
		return
	}
	switch {
	case prev.builtin:
		c.ds.Errorf(o.pos, fault.UserMCPProxyNameCollision, "set `intercept_builtins: false` if the plugin should replace the built-in, or do not expose this operation",
			"tool %q of plugin %q in state %q has the name of a built-in tool", name, o.plugin, s.Name)
	case prev.plugin == o.plugin && prev.entry == o.entry:
		c.ds.Errorf(o.pos, fault.UserMCPProxyNameCollision, fmt.Sprintf("remove the duplicate; it is first listed at %s", near(prev.pos, o.pos)),
			"plugin_tools entry #%d of state %q exposes %q twice", o.entry+1, s.Name, o.op)
	case prev.plugin == o.plugin:
		c.ds.Errorf(o.pos, fault.UserMCPProxyNameCollision, fmt.Sprintf("list plugin %q once and merge its expose lists; %q is first exposed at %s", o.plugin, o.op, near(prev.pos, o.pos)),
			"plugin %q is listed twice in plugin_tools of state %q and both entries expose %q (tool %q)", o.plugin, s.Name, o.op, name)
	default:
		c.ds.Errorf(o.pos, fault.UserMCPProxyNameCollision, fmt.Sprintf("the other is at %s; expose only one of them, or rename one plugin in .awf/plugins.yaml", near(prev.pos, o.pos)),
			"tool %q of state %q would be served twice: by plugin %q (operation %q) and plugin %q (operation %q)", name, s.Name, prev.plugin, prev.op, o.plugin, o.op)
	}
}

// near names position p for a diagnostic at `from`: "line 3, column 7" within the same file,
// the full file:line:col otherwise.
func near(p, from fault.Position) string {
	if p.File == from.File && p.Line > 0 {
		return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
	}
	return p.String()
}

func pluginPos(m *workflow.MCPProxy, pt workflow.PluginTools, i int) fault.Position {
	if pt.Pos.Valid() {
		return pt.Pos
	}
	return m.ValueAt(fmt.Sprintf("plugin_tools[%d]", i))
}

func exposePos(m *workflow.MCPProxy, pt workflow.PluginTools, i, j int) fault.Position {
	if j < len(pt.ExposePos) && pt.ExposePos[j].Valid() {
		return pt.ExposePos[j]
	}
	return m.ValueAt(fmt.Sprintf("plugin_tools[%d].expose[%d]", i, j))
}

func operationHint(op string, listed []string) string {
	if len(listed) == 0 {
		return "the plugin lists no operations"
	}
	return suggest.DidYouMean(op, listed)
}

// message is an error's text without the code and position a fault.Error adds, which the
// diagnostic carries itself.
func message(err error) string {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return fe.Message
	}
	return err.Error()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
