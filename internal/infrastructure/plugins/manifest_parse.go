package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// parser walks one plugins.yaml and collects diagnostics without stopping at the first. Its
// mappings, aliases, merge keys and duplicate keys are read by strictyaml, as a workflow's are.
type parser struct {
	strictyaml.Reader
}

func newParser(file string) *parser {
	return &parser{Reader: strictyaml.Reader{File: file, Code: fault.UserPluginsInvalidValue}}
}

func (p *parser) pos(n *yaml.Node) fault.Position { return p.Pos(n) }

func (p *parser) errorf(n *yaml.Node, code, hint, format string, args ...any) {
	p.Diags.Errorf(p.Pos(n), code, hint, format, args...)
}

func (p *parser) document(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if !errors.Is(err, io.EOF) { // an empty file declares no plugins
			p.Syntax(err, data)
		}
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	p.Duplicates(doc.Content[0])
	return doc.Content[0]
}

// pairs returns a mapping's key and value nodes, `<<:` merges expanded; a null node is empty,
// anything else is reported.
func (p *parser) pairs(n *yaml.Node, what, example string) [][2]*yaml.Node {
	entries, _ := p.Mapping(n, what, example)
	out := make([][2]*yaml.Node, 0, len(entries))
	for _, e := range entries {
		out = append(out, [2]*yaml.Node{e.K, e.V})
	}
	return out
}

var (
	topKeys    = []string{"plugins"}
	pluginKeys = []string{"command", "args", "env", "config", "disabled"}
)

func (p *parser) top(root *yaml.Node) []Spec {
	var specs []Spec
	for _, kv := range p.pairs(root, "plugins.yaml", "`plugins: {echo: {command: bin/plugins/echo}}`") {
		if kv[0].Value != "plugins" {
			p.unknownKey(kv[0], "at the top of plugins.yaml", topKeys)
			continue
		}
		for _, pv := range p.pairs(kv[1], "plugins", "`echo: {command: bin/plugins/echo}`") {
			if s, ok := p.plugin(pv[0], pv[1]); ok {
				specs = append(specs, s)
			}
		}
	}
	return specs
}

func (p *parser) plugin(k, v *yaml.Node) (Spec, bool) {
	s := Spec{Name: k.Value, Pos: p.pos(k), Config: json.RawMessage("{}")}
	ok := true
	if !pluginName.MatchString(s.Name) {
		p.errorf(k, fault.UserPluginsInvalidName, "use 1-64 letters, digits, '_' or '-', starting with a letter or digit: the name prefixes tool names",
			"plugin name %q is not allowed", s.Name)
		ok = false
	}
	if r := p.Resolve(v); r != nil && r.Kind != yaml.MappingNode {
		p.errorf(v, fault.UserPluginsInvalidValue, "write `"+s.Name+": {command: bin/plugins/"+s.Name+"}`",
			"plugin %q must be a mapping with at least `command`, got %s", s.Name, strictyaml.KindName(r))
		return s, false
	}
	hasCommand := false
	for _, kv := range p.pairs(v, "plugin "+s.Name, "`{command: bin/plugins/"+s.Name+"}`") {
		key, val := kv[0], kv[1]
		switch key.Value {
		case "command":
			hasCommand = true
			s.Command = p.str(val, "command of plugin "+s.Name)
			s.CommandPos = p.pos(val)
			if strings.TrimSpace(s.Command) == "" && s.MCP.URL == "" {
				p.errorf(val, fault.UserPluginsMissingCommand, "give the plugin's executable, relative to the project root", "command of plugin %q is empty", s.Name)
				ok = false
			}
		case "args":
			for _, it := range p.seq(val, "args of plugin "+s.Name, "[--verbose]") {
				s.Args = append(s.Args, p.str(it, "an item of args of plugin "+s.Name))
			}
		case "env":
			for _, ev := range p.pairs(val, "env of plugin "+s.Name, "`{LOG_LEVEL: debug}`") {
				if strings.ContainsAny(ev[0].Value, "=\x00") || ev[0].Value == "" {
					p.errorf(ev[0], fault.UserPluginsInvalidValue, "environment variable names cannot be empty or contain '='", "env key %q of plugin %q is not a variable name", ev[0].Value, s.Name)
					continue
				}
				s.Env = append(s.Env, ev[0].Value+"="+p.str(ev[1], "env "+ev[0].Value+" of plugin "+s.Name))
			}
		case "config":
			s.Config = p.config(val, s.Name)
		case "disabled":
			s.Disabled = p.boolean(val, "disabled of plugin "+s.Name)
		default:
			if !p.mcpKey(&s, key, val) {
				p.unknownKey(key, "in plugin "+strconv.Quote(s.Name), append(pluginKeys, mcpKeys...))
			}
		}
	}
	if s.Type == TypeMCP {
		return s, p.mcpDone(&s, k, hasCommand) && ok
	}
	if !hasCommand {
		p.errorf(k, fault.UserPluginsMissingCommand, "add `command: bin/plugins/"+s.Name+"` (relative to the project root)", "plugin %q has no command", s.Name)
		ok = false
	}
	return s, ok
}

func (p *parser) unknownKey(k *yaml.Node, where string, valid []string) {
	hint := suggest.DidYouMean(k.Value, valid)
	if !strings.HasPrefix(hint, "did you mean") {
		hint = "valid keys " + where + ": " + strings.Join(valid, ", ")
	}
	p.errorf(k, fault.UserPluginsUnknownKey, hint, "unknown key %q %s", k.Value, where)
}

func (p *parser) seq(n *yaml.Node, what, example string) []*yaml.Node {
	r := p.Resolve(n)
	if strictyaml.IsNull(r) {
		return nil
	}
	if r.Kind != yaml.SequenceNode {
		p.errorf(n, fault.UserPluginsInvalidValue, "write it as a list, e.g. "+example, "%s must be a list, got %s", what, strictyaml.KindName(r))
		return nil
	}
	return r.Content
}

func (p *parser) str(n *yaml.Node, what string) string {
	r := p.Resolve(n)
	if strictyaml.IsNull(r) {
		return ""
	}
	if r.Kind != yaml.ScalarNode {
		p.errorf(n, fault.UserPluginsInvalidValue, "write a single value, quoted if needed", "%s must be text, got %s", what, strictyaml.KindName(r))
		return ""
	}
	return r.Value
}

func (p *parser) boolean(n *yaml.Node, what string) bool {
	r := p.Resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && r.Tag == "!!bool" {
		var b bool
		if r.Decode(&b) == nil {
			return b
		}
	}
	p.errorf(n, fault.UserPluginsInvalidValue, "write true or false, without quotes", "%s must be true or false, got %s", what, strictyaml.KindName(r))
	return false
}

// config turns the `config:` block into a JSON object.
func (p *parser) config(n *yaml.Node, name string) json.RawMessage {
	r := p.Resolve(n)
	if strictyaml.IsNull(r) {
		return json.RawMessage("{}")
	}
	if r.Kind != yaml.MappingNode {
		p.errorf(n, fault.UserPluginsInvalidValue, "write it as a mapping, e.g. `config: {dir: .awf/notes}`", "config of plugin %q must be a mapping, got %s", name, strictyaml.KindName(r))
		return json.RawMessage("{}")
	}
	v, ok := p.value(n, 0)
	if !ok {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(v)
	if err != nil {
		p.errorf(n, fault.UserPluginsInvalidValue, "use plain values (text, numbers, booleans, lists, mappings)", "config of plugin %q cannot be sent as JSON: %v", name, err)
		return json.RawMessage("{}")
	}
	return b
}

// value converts a config node into JSON-ready Go values.
func (p *parser) value(n *yaml.Node, depth int) (any, bool) {
	r := p.Resolve(n)
	if r == nil || !p.Spend(n) {
		return nil, false
	}
	if depth > strictyaml.MaxDepth {
		p.errorf(n, fault.UserPluginsInvalidValue, "flatten the config", "config nests deeper than %d levels", strictyaml.MaxDepth)
		return nil, false
	}
	switch r.Kind {
	case yaml.ScalarNode:
		var v any
		if err := r.Decode(&v); err != nil {
			return r.Value, true
		}
		if f, isFloat := v.(float64); isFloat && (math.IsNaN(f) || math.IsInf(f, 0)) {
			p.errorf(n, fault.UserPluginsInvalidValue, "JSON has no NaN or infinity; quote the value to pass it as text", "config value %s is not a JSON number", r.Value)
			return nil, false
		}
		return v, true
	case yaml.SequenceNode:
		out := make([]any, 0, len(r.Content))
		for _, it := range r.Content {
			v, ok := p.value(it, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case yaml.MappingNode:
		out := map[string]any{}
		for _, kv := range p.pairs(r, "config", "") {
			v, ok := p.value(kv[1], depth+1)
			if !ok {
				return nil, false
			}
			out[kv[0].Value] = v
		}
		return out, true
	}
	return nil, false
}
