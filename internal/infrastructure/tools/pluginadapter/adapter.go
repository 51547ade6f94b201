// Package pluginadapter turns plugin operations into tools: for one plugin and the operations a
// step exposes (mcp_proxy.plugin_tools[].expose), a ports.ToolProvider whose tools are named
// <plugin>_<operation>, carry the operation's description, input schema and annotations as the
// plugin declared them, and report source plugin:<name>. Calls go through awf's tool router like
// any tool (schema check, intent rule, span, log line, activity record) and end in the plugin
// host's Execute.
package pluginadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// noArguments is the schema of an operation that declares none.
var noArguments = json.RawMessage(`{"type":"object"}`)

// Provider serves the exposed operations of one plugin.
type Provider struct {
	ops    ports.OperationProvider
	plugin string
	expose []string
	mu     sync.Mutex
	byTool map[string]string // tool name → operation, filled by ListTools once globs are expanded
	owner  *sharedCloser     // set by Owned: the last provider to close closes the host
	once   sync.Once
}

var _ ports.ToolProvider = (*Provider)(nil)

// New returns the provider of plugin's operations listed in expose, in that order. Nothing is
// started until ListTools or CallTool.
func New(ops ports.OperationProvider, plugin string, expose []string) *Provider {
	p := &Provider{ops: ops, plugin: plugin, expose: append([]string(nil), expose...), byTool: map[string]string{}}
	for _, op := range expose {
		if !isGlob(op) {
			p.byTool[tool.PluginToolName(plugin, op)] = op
		}
	}
	return p
}

// Providers returns one provider per plugin_tools entry of an mcp-serve config, in order. A
// plugin listed twice yields two providers, so an operation exposed by both is a name
// collision at the router rather than silently merged.
func Providers(ops ports.OperationProvider, entries []toolset.PluginTools) []ports.ToolProvider {
	out := make([]ports.ToolProvider, 0, len(entries))
	for _, e := range entries {
		out = append(out, New(ops, e.Plugin, e.Expose))
	}
	return out
}

// Owned is Providers for a router that owns its providers: closing the last of them closes c,
// normally the plugin host, so the router's Close (or a failed NewRouter, which closes what it
// was given) stops the plugin processes without the caller tracking the host.
func Owned(c io.Closer, ops ports.OperationProvider, entries []toolset.PluginTools) []ports.ToolProvider {
	out := Providers(ops, entries)
	shared := &sharedCloser{c: c}
	shared.left.Store(int32(len(out)))
	for _, p := range out {
		p.(*Provider).owner = shared
	}
	return out
}

// sharedCloser closes c when the last of its providers closes.
type sharedCloser struct {
	c    io.Closer
	left atomic.Int32
}

// Source is plugin:<name> (mcp:<name> for a bridged MCP server); the router uses it to name
// this provider in errors and activity records.
func (p *Provider) Source() tool.Source {
	if s, ok := p.ops.(sourcer); ok {
		return s.SourceOf(p.plugin)
	}
	return tool.PluginSource(p.plugin)
}

// ListTools asks the plugin for its operations (starting it if needed) and returns one tool per
// exposed operation. Every problem is reported at once and nothing is dropped: an exposed
// operation the plugin does not list is USER.MCP_PROXY.UNKNOWN_OPERATION (with a did-you-mean),
// a schema that is not a JSON object schema is USER.MCP_PROXY.INVALID_SCHEMA.
func (p *Provider) ListTools(ctx context.Context) ([]tool.Definition, error) {
	listed, err := p.ops.Operations(ctx, p.plugin)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]ports.PluginOperation, len(listed))
	names := make([]string, 0, len(listed))
	for _, op := range listed {
		byName[op.Name] = op
		names = append(names, op.Name)
	}
	var (
		defs       []tool.Definition
		unknown    []error
		badSchemas []string
		errs       []error
	)
	expanded, unmatched := expand(p.expose, names)
	for _, name := range unmatched {
		unknown = append(unknown, fault.New(fault.UserMCPProxyUnknownOperation, "plugin %q has no operation matching %q", p.plugin, name).
			WithHint("%s", hintFor(name, names)))
	}
	for _, name := range expanded {
		op, ok := byName[name]
		if !ok {
			unknown = append(unknown, fault.New(fault.UserMCPProxyUnknownOperation, "plugin %q has no operation %q", p.plugin, name).
				WithHint("%s", hintFor(name, names)))
			continue
		}
		schema, err := inputSchema(op.InputSchema)
		if err != nil {
			badSchemas = append(badSchemas, fmt.Sprintf("operation %q of plugin %q: %v", name, p.plugin, err))
			continue
		}
		tn := tool.PluginToolName(p.plugin, name)
		if len(tn) > tool.MaxCLIToolName {
			errs = append(errs, fault.New(fault.UserMCPProxyToolNameTooLong, "tool name %q (plugin %q, operation %q) is %d characters, more than the %d agent CLIs accept", tn, p.plugin, name, len(tn), tool.MaxCLIToolName).
				WithHint("rename the plugin in .awf/plugins.yaml to something shorter"))
			continue
		}
		p.mu.Lock()
		p.byTool[tn] = name
		p.mu.Unlock()
		defs = append(defs, tool.Definition{
			Name:         tn,
			Title:        op.Title,
			Description:  description(p.plugin, op),
			InputSchema:  schema,
			OutputSchema: op.OutputSchema,
			Icons:        op.Icons,
			Meta:         op.Meta,
			Annotations:  op.Annotations,
			Source:       p.Source(),
		})
	}
	switch len(unknown) {
	case 0:
	case 1:
		errs = append(errs, unknown[0])
	default:
		errs = append(errs, errors.Join(unknown...))
	}
	if len(badSchemas) > 0 {
		errs = append(errs, fault.New(fault.UserMCPProxyInvalidSchema, "%s", strings.Join(badSchemas, "\n")).
			WithHint("fix the operation's input schema in the plugin: a JSON object with \"type\": \"object\" at the top"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if pc, ok := p.ops.(pinChecker); ok {
		if err := pc.CheckPins(ctx, p.plugin, expanded); err != nil {
			return nil, err
		}
	}
	return p.withoutHeld(ctx, defs, expanded)
}

// withoutHeld leaves out of defs the tools the host holds out: a high finding of the scan of
// their definition that .awf/plugins.lock does not accept (the host logs why).
func (p *Provider) withoutHeld(ctx context.Context, defs []tool.Definition, expanded []string) ([]tool.Definition, error) {
	g, ok := p.ops.(scanGate)
	if !ok {
		return defs, nil
	}
	held, err := g.HeldOut(ctx, p.plugin, expanded)
	if err != nil || len(held) == 0 {
		return defs, err
	}
	kept := defs[:0]
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range defs {
		if _, out := held[p.byTool[d.Name]]; out {
			delete(p.byTool, d.Name)
			continue
		}
		kept = append(kept, d)
	}
	return kept, nil
}

// CallTool runs the operation behind tool name. Errors from the host name the plugin (it
// crashed, could not start, the step ended); an operation's own failure is an IsError result.
func (p *Provider) CallTool(ctx context.Context, name string, args json.RawMessage) (tool.Result, error) {
	p.mu.Lock()
	op, ok := p.byTool[name]
	p.mu.Unlock()
	if !ok {
		return tool.Result{}, fault.New(fault.SystemMCPProxyUnknownTool, "tool %q is not served by %s", name, p.Source())
	}
	return p.ops.Execute(ctx, p.plugin, op, args)
}

// Close releases the provider. Plugin processes belong to the host, which may serve several
// providers (one plugin listed in two entries, or the validation that ran before): a provider
// made by New or Providers leaves it running; the last provider made by Owned closes it.
func (p *Provider) Close() error {
	var err error
	p.once.Do(func() {
		if p.owner != nil && p.owner.left.Add(-1) == 0 {
			err = p.owner.c.Close()
		}
	})
	return err
}

// inputSchema checks that raw is a JSON object schema and returns it unchanged, so that nested
// objects, arrays, enums, defaults and every other keyword reach the agent exactly as the plugin
// wrote them. Deeper checks (drafts, references) are the router's, at registration.
func inputSchema(raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return noArguments, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &top); err != nil {
		if !json.Valid(trimmed) {
			return nil, fmt.Errorf("the input schema is not valid JSON: %v", err)
		}
		return nil, fmt.Errorf("the input schema must be a JSON object, got %s", jsonKind(trimmed))
	}
	t, ok := top["type"]
	if !ok {
		return nil, fmt.Errorf(`the input schema has no "type"; MCP requires "type": "object" at the top level`)
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(t, &one) == nil && one == "object":
	case json.Unmarshal(t, &many) == nil && len(many) == 1 && many[0] == "object":
	default:
		return nil, fmt.Errorf(`the input schema has "type": %s; MCP requires "type": "object" at the top level`, bytes.TrimSpace(t))
	}
	return json.RawMessage(trimmed), nil
}

func jsonKind(b []byte) string {
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// description is the tool description: the operation's, with its output description after it,
// or a plain fallback so the tool never goes undescribed. A description without an output
// description is kept byte for byte (a bridged MCP server's tool is listed as its server wrote it).
func description(plugin string, op ports.PluginOperation) string {
	d := strings.TrimSpace(op.Description)
	if d == "" {
		d = fmt.Sprintf("Operation %s of plugin %s.", op.Name, plugin)
	} else if strings.TrimSpace(op.OutputDescription) == "" {
		return op.Description
	}
	if out := strings.TrimSpace(op.OutputDescription); out != "" {
		d += "\n\nReturns: " + out
	}
	return d
}

func hintFor(name string, names []string) string {
	if len(names) == 0 {
		return "the plugin lists no operations"
	}
	return suggest.DidYouMean(name, names)
}
