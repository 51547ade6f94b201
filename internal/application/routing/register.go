package routing

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// maxToolName is the longest tool name MCP allows.
const maxToolName = 128

// Collision is one tool name served more than once, with every source that serves it in
// registration order.
type Collision struct {
	Tool    string
	Sources []tool.Source
}

// String says which sources serve the tool, as the collision error prints it.
func (c Collision) String() string {
	if len(c.Sources) == 2 && c.Sources[0] == c.Sources[1] {
		return fmt.Sprintf("tool %q is listed twice by %s", c.Tool, c.Sources[0])
	}
	names := make([]string, len(c.Sources))
	for i, s := range c.Sources {
		names[i] = string(s)
	}
	if len(names) == 2 {
		return fmt.Sprintf("tool %q is provided by both %s and %s", c.Tool, names[0], names[1])
	}
	return fmt.Sprintf("tool %q is provided by %s and %s", c.Tool, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// CollisionError lists every collision found at registration. It is wrapped in the
// USER.MCP_PROXY.NAME_COLLISION fault so that callers (validation) can report each collision on
// its own while the CLI prints the fault as one error.
type CollisionError struct {
	Collisions []Collision
}

// Error lists the collisions, one per line when there are several.
func (e *CollisionError) Error() string {
	if len(e.Collisions) == 1 {
		return e.Collisions[0].String()
	}
	lines := []string{fmt.Sprintf("%d tool names are provided more than once:", len(e.Collisions))}
	for _, c := range e.Collisions {
		lines = append(lines, "  "+c.String())
	}
	return strings.Join(lines, "\n")
}

// register lists every provider's tools and builds the name space, collecting every problem.
func (r *Router) register(ctx context.Context) (*catalog, error) {
	cat := &catalog{entries: map[string]*entry{}}
	sources := map[string][]tool.Source{}
	var names []string // first-seen order, for a stable collision report
	var listErrs, nameErrs, schemaErrs []string
	var errs []error
	for i, p := range r.providers {
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(err, fault.InterruptMCPProxyCancelled, "listing tools was cancelled")
		}
		defs, err := p.ListTools(ctx)
		if err != nil {
			if fault.ExitCode(err) == fault.ExitUser {
				// A configuration mistake (unknown plugin or operation, bad plugin config) keeps its
				// own code: it is the user's to fix, not an execution failure.
				errs = append(errs, err)
				continue
			}
			listErrs = append(listErrs, fmt.Sprintf("%s could not list its tools: %v", providerLabel(p, i), err))
			continue
		}
		for _, def := range defs {
			if def.Source == "" {
				def.Source = tool.Source(providerLabel(p, i))
			}
			if prior, dup := sources[def.Name]; dup {
				sources[def.Name] = append(prior, def.Source)
				continue
			}
			sources[def.Name] = []tool.Source{def.Source}
			names = append(names, def.Name)
			if msg := checkName(def.Name); msg != "" {
				nameErrs = append(nameErrs, fmt.Sprintf("tool %q from %s: %s", def.Name, def.Source, msg))
				continue
			}
			e := &entry{provider: p, spanName: executeToolSpan + def.Name}
			if schemasVerified(p) {
				def.InputSchema, e.lazy = listedSchema(def.InputSchema), &lazySchema{}
			} else {
				raw, resolved, err := compileSchema(def.InputSchema)
				if err != nil {
					schemaErrs = append(schemaErrs, fmt.Sprintf("tool %q from %s has an input schema awf cannot use: %v", def.Name, def.Source, err))
					continue
				}
				def.InputSchema, e.schema = raw, resolved
			}
			e.def = def
			cat.order = append(cat.order, def.Name)
			cat.entries[def.Name] = e
		}
	}
	var collisions []Collision
	for _, n := range names {
		if s := sources[n]; len(s) > 1 {
			collisions = append(collisions, Collision{Tool: n, Sources: s})
		}
	}
	if len(collisions) > 0 {
		ce := &CollisionError{Collisions: collisions}
		errs = append(errs, fault.Wrap(ce, fault.UserMCPProxyNameCollision, "%s", ce.Error()).WithHint(
			"give each tool a unique name: expose only one of them in mcp_proxy.plugin_tools, rename the plugin operation, or set intercept_builtins: false when a plugin replaces a built-in"))
	}
	if len(nameErrs) > 0 {
		errs = append(errs, fault.New(fault.UserMCPProxyInvalidTool, "%s", strings.Join(nameErrs, "\n")).WithHint(
			"rename the operation in its plugin: MCP tool names are 1-%d letters, digits, '_', '-' or '.'", maxToolName))
	}
	if len(schemaErrs) > 0 {
		errs = append(errs, fault.New(fault.UserMCPProxyInvalidSchema, "%s", strings.Join(schemaErrs, "\n")).WithHint(
			"fix the operation's input schema in its plugin: JSON Schema draft 2020-12 or draft-07, \"type\": \"object\" at the top, no remote $ref"))
	}
	if len(listErrs) > 0 {
		errs = append(errs, fault.New(fault.ExecutionMCPProxyListToolsFailed, "%s", strings.Join(listErrs, "\n")).WithHint(
			"check that the plugin starts on its own (run its command) and see the log for its output"))
	}
	switch len(errs) {
	case 0:
		return cat, nil
	case 1:
		return nil, errs[0]
	default:
		return nil, errors.Join(errs...)
	}
}

// checkName returns why name is not a valid MCP tool name, or "".
func checkName(name string) string {
	if name == "" || len(name) > maxToolName {
		return fmt.Sprintf("a tool name must be 1 to %d characters long", maxToolName)
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			return fmt.Sprintf("character %q is not allowed in a tool name (use letters, digits, '_', '-' or '.')", c)
		}
	}
	return ""
}

// emptyObjectSchema is the schema of a tool that takes no arguments.
var emptyObjectSchema = json.RawMessage(`{"type":"object"}`)

// supportedDrafts are the $schema values the validator understands; "" means the default
// (2020-12).
var supportedDrafts = map[string]bool{
	"": true,
	"https://json-schema.org/draft/2020-12/schema": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
}

// listedSchema is the schema listed for raw: a missing one means "no arguments".
func listedSchema(raw json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptyObjectSchema
	}
	return raw
}

// compileSchema parses and resolves an input schema. A missing schema means "no arguments". The
// returned raw schema is what gets listed to agents.
func compileSchema(raw json.RawMessage) (json.RawMessage, *jsonschema.Resolved, error) {
	raw = listedSchema(raw)
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, nil, fmt.Errorf("not a JSON Schema: %v", err)
	}
	if !supportedDrafts[s.Schema] {
		return nil, nil, fmt.Errorf("$schema %q is not supported (use draft 2020-12 or draft-07)", s.Schema)
	}
	if s.Type != "object" && !(len(s.Types) == 1 && s.Types[0] == "object") {
		got := s.Type
		if len(s.Types) > 0 {
			got = strings.Join(s.Types, ", ")
		}
		if got == "" {
			got = "no type"
		}
		return nil, nil, fmt.Errorf(`the top level must have "type": "object" as MCP requires, got %s`, got)
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, nil, err
	}
	return raw, resolved, nil
}
