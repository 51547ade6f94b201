package yamlrepo

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// loader walks one document and collects structural diagnostics. It never stops at the first
// problem: each wrong node is reported and skipped, and the rest of the file is still read.
type loader struct {
	strictyaml.Reader // the file's name, diagnostics and alias budget; mappings and aliases
	// hushed are places where a structural error already explains what semantic validation
	// would report there (a state that is not a mapping has, of course, no type).
	hushed    map[fault.Position]bool
	expanding map[*yaml.Node]bool // free-form nodes being decoded, to catch self-reference
}

// entry is one key of a mapping: its name and the key and value nodes as written.
type entry = strictyaml.Entry

// hush silences semantic diagnostics at n's position (see loader.hushed).
func (l *loader) hush(n *yaml.Node) {
	if l.hushed == nil {
		l.hushed = map[fault.Position]bool{}
	}
	l.hushed[l.Pos(n)] = true
}

// sequence returns the items of a list node. A null node is an empty list; any other kind is
// reported, yields nothing, and ok false.
func (l *loader) sequence(n *yaml.Node, what, example string) (items []*yaml.Node, ok bool) {
	r := l.Resolve(n)
	if strictyaml.IsNull(r) {
		return nil, r != nil
	}
	if r.Kind != yaml.SequenceNode {
		l.Invalid(n, "write it as a list, e.g. "+example, "%s must be a list, got %s", what, strictyaml.KindName(r))
		return nil, false
	}
	return r.Content, true
}

// str reads a scalar as text. Numbers are kept as written; null is "". A list or mapping is
// reported and yields "".
func (l *loader) str(n *yaml.Node, what string) string {
	r := l.Resolve(n)
	if strictyaml.IsNull(r) {
		return ""
	}
	if r.Kind != yaml.ScalarNode {
		l.Invalid(n, "write a single value; quote it if it contains `: ` or starts with `[` or `{`",
			"%s must be text, got %s", what, strictyaml.KindName(r))
		return ""
	}
	return r.Value
}

// boolean reads true or false; anything else is reported and yields def.
func (l *loader) boolean(n *yaml.Node, what string, def bool) bool {
	r := l.Resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && r.Tag == "!!bool" {
		var b bool
		if err := r.Decode(&b); err == nil {
			return b
		}
	}
	got := "nothing"
	if r != nil {
		got = strictyaml.KindName(r)
	}
	l.Invalid(n, "write true or false, without quotes", "%s must be true or false, got %s", what, got)
	return def
}

// strList reads a list of scalars with the position of each item; ok as for sequence.
func (l *loader) strList(n *yaml.Node, what, example string) ([]string, []fault.Position, bool) {
	items, ok := l.sequence(n, what, example)
	out := make([]string, 0, len(items))
	pos := make([]fault.Position, 0, len(items))
	for i, it := range items {
		out = append(out, l.str(it, fmt.Sprintf("item #%d of %s", i+1, what)))
		pos = append(pos, l.Pos(it))
	}
	return out, pos, ok
}

// value decodes a free-form value (such as an agent option) into string, int64, float64, bool,
// nil, []any or map[string]any. rec, when non-nil, is
// told the key and value position of every mapping key, by dotted path under prefix.
func (l *loader) value(n *yaml.Node, prefix string, depth int, rec func(path string, k, v *yaml.Node)) any {
	r := l.Resolve(n)
	if r == nil || !l.Spend(n) {
		return nil
	}
	if l.expanding[r] {
		l.Invalid(n, "an anchored value cannot contain an alias of itself", "%s refers to itself through the alias *%s", prefix, n.Value)
		return nil
	}
	if depth > strictyaml.MaxDepth {
		l.Invalid(n, "flatten the value", "%s nests deeper than %d levels", prefix, strictyaml.MaxDepth)
		return nil
	}
	if r.Kind == yaml.ScalarNode {
		return scalar(r)
	}
	if l.expanding == nil {
		l.expanding = map[*yaml.Node]bool{}
	}
	l.expanding[r] = true
	defer delete(l.expanding, r)
	switch r.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		entries, _ := l.Mapping(n, prefix, "")
		for _, e := range entries {
			p := prefix + "." + e.Key
			if rec != nil {
				rec(p, e.K, e.V)
			}
			m[e.Key] = l.value(e.V, p, depth+1, rec)
		}
		return m
	case yaml.SequenceNode:
		out := make([]any, 0, len(r.Content))
		for i, it := range r.Content {
			out = append(out, l.value(it, fmt.Sprintf("%s[%d]", prefix, i), depth+1, rec))
		}
		return out
	}
	return nil
}

// scalar converts a scalar by its resolved tag; values that do not fit keep their text.
func scalar(n *yaml.Node) any {
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	}
	return n.Value
}

// unknownKey reports a key no schema knows, with the closest valid key as a hint.
func (l *loader) unknownKey(e entry, code, where string, valid []string) {
	hint := suggest.DidYouMean(e.Key, valid)
	if h, ok := ignoredByReference(e.Key, where); ok {
		hint = h
	} else if !strings.HasPrefix(hint, "did you mean") {
		hint = "valid keys " + where + ": " + strings.Join(valid, ", ")
	}
	l.Diags.Errorf(l.Pos(e.K), code, hint, "unknown key %q %s", e.Key, where)
}

// block is a mapping with a fixed set of keys, as messages name it.
type block struct {
	what, example string // "retry", "`retry: {max_attempts: 3}`"
	keys          []string
	code, where   string // how and where an unknown key is reported: "in retry"
}

// fields reads a mapping of b's keys: an unknown key is reported with a did-you-mean, a known one
// is recorded at prefix+key and handed to set. ok is as for mapping.
func (l *loader) fields(n *yaml.Node, b block, pm posMaps, prefix string, set func(e entry)) (ok bool) {
	entries, ok := l.Mapping(n, b.what, b.example)
	for _, e := range entries {
		if !contains(b.keys, e.Key) {
			l.unknownKey(e, b.code, b.where, b.keys)
			continue
		}
		l.record(pm, prefix+e.Key, e.K, e.V)
		set(e)
	}
	return ok
}
