package yamlrepo

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Limits that keep a hostile or broken file from costing more than a moment: aliases can make
// a small file expand without bound ("billion laughs"), and anchors can refer to themselves.
const (
	maxExpansions = 100_000 // alias resolutions and free-form nodes decoded, per file
	maxDepth      = 64      // nesting inside free-form values such as options
	maxAliasHops  = 64      // an alias of an alias of …
	maxMergeDepth = 8       // `<<:` merges inside merged mappings
)

// loader walks one document and collects structural diagnostics. It never stops at the first
// problem: each wrong node is reported and skipped, and the rest of the file is still read.
type loader struct {
	file string
	ds   fault.Diagnostics
	// hushed are places where a structural error already explains what semantic validation
	// would report there (a state that is not a mapping has, of course, no type).
	hushed     map[fault.Position]bool
	expansions int
	exhausted  bool
	expanding  map[*yaml.Node]bool // free-form nodes being decoded, to catch self-reference
}

// entry is one key of a mapping: its name and the key and value nodes as written.
type entry struct {
	key  string
	k, v *yaml.Node
}

func (l *loader) pos(n *yaml.Node) fault.Position {
	return fault.Position{File: l.file, Line: n.Line, Column: n.Column}
}

func (l *loader) invalid(n *yaml.Node, hint, format string, args ...any) {
	l.ds.Errorf(l.pos(n), fault.UserWorkflowInvalidValue, hint, format, args...)
}

// hush silences semantic diagnostics at n's position (see loader.hushed).
func (l *loader) hush(n *yaml.Node) {
	if l.hushed == nil {
		l.hushed = map[fault.Position]bool{}
	}
	l.hushed[l.pos(n)] = true
}

// spend counts an expansion and reports, once, when the file exceeds the budget.
func (l *loader) spend(n *yaml.Node) bool {
	l.expansions++
	if l.expansions <= maxExpansions {
		return true
	}
	if !l.exhausted {
		l.exhausted = true
		l.invalid(n, "remove the aliases (*name) that expand to large values",
			"the aliases of this file expand to more than %d values", maxExpansions)
	}
	return false
}

// resolve follows aliases to the node they stand for. Plain nodes cost nothing; each alias
// costs one expansion, and nil is returned once the budget is spent or the chain is too long.
func (l *loader) resolve(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops >= maxAliasHops || !l.spend(n) {
			return nil
		}
		n = n.Alias
	}
	return n
}

// isNull reports an absent value (`key:` or `key: ~`), which every key treats as not given.
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// kindName says what a node is, in the words of the error messages.
func kindName(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "a boolean (" + n.Value + ")"
		case "!!int", "!!float":
			return "a number (" + n.Value + ")"
		}
		return fmt.Sprintf("the text %q", n.Value)
	}
	return "an unsupported YAML node"
}

// mapping returns the entries of a mapping node in file order, keeping the first of duplicate
// keys and expanding `<<:` merge keys (explicit keys win over merged ones, earlier merges over later).
// A null node is an empty mapping; any other kind is reported, yields nothing, and ok false.
func (l *loader) mapping(n *yaml.Node, what, example string) (entries []entry, ok bool) {
	return l.mappingDepth(n, what, example, 0)
}

func (l *loader) mappingDepth(n *yaml.Node, what, example string, depth int) ([]entry, bool) {
	r := l.resolve(n)
	if isNull(r) {
		return nil, r != nil
	}
	if r.Kind != yaml.MappingNode {
		hint := "write it as a mapping of keys"
		if example != "" {
			hint = "write it as a mapping, e.g. " + example
		}
		l.invalid(n, hint, "%s must be a mapping, got %s", what, kindName(r))
		return nil, false
	}
	var out []entry
	var merges []*yaml.Node
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		kr := l.resolve(k)
		if kr == nil {
			continue
		}
		if kr.Kind != yaml.ScalarNode {
			l.invalid(k, "use a plain word as the key", "keys of %s must be plain words, got %s", what, kindName(kr))
			continue
		}
		if kr.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if _, dup := first[kr.Value]; dup {
			continue // reported by duplicates, which sees the whole tree
		}
		first[kr.Value] = k
		out = append(out, entry{key: kr.Value, k: k, v: v})
	}
	for _, m := range merges {
		for _, src := range l.mergeSources(m, what) {
			if depth >= maxMergeDepth {
				l.invalid(m, "merge plain mappings, not mappings that merge others in turn", "merges in %s nest too deeply", what)
				return out, true
			}
			merged, _ := l.mappingDepth(src, what, "", depth+1)
			for _, e := range merged {
				if !l.spend(e.k) {
					return out, true
				}
				if _, ok := first[e.key]; !ok {
					first[e.key] = e.k
					out = append(out, e)
				}
			}
		}
	}
	return out, true
}

// mergeSources returns the mappings a `<<:` value merges: one mapping or a list of them.
func (l *loader) mergeSources(n *yaml.Node, what string) []*yaml.Node {
	r := l.resolve(n)
	if r == nil {
		return nil
	}
	if r.Kind == yaml.SequenceNode {
		return r.Content
	}
	if r.Kind != yaml.MappingNode {
		l.invalid(n, "merge a mapping, e.g. `<<: *defaults`", "the merge key `<<` in %s needs a mapping, got %s", what, kindName(r))
		return nil
	}
	return []*yaml.Node{r}
}

// sequence returns the items of a list node. A null node is an empty list; any other kind is
// reported, yields nothing, and ok false.
func (l *loader) sequence(n *yaml.Node, what, example string) (items []*yaml.Node, ok bool) {
	r := l.resolve(n)
	if isNull(r) {
		return nil, r != nil
	}
	if r.Kind != yaml.SequenceNode {
		l.invalid(n, "write it as a list, e.g. "+example, "%s must be a list, got %s", what, kindName(r))
		return nil, false
	}
	return r.Content, true
}

// str reads a scalar as text. Numbers are kept as written; null is "". A list or mapping is
// reported and yields "".
func (l *loader) str(n *yaml.Node, what string) string {
	r := l.resolve(n)
	if isNull(r) {
		return ""
	}
	if r.Kind != yaml.ScalarNode {
		l.invalid(n, "write a single value; quote it if it contains `: ` or starts with `[` or `{`",
			"%s must be text, got %s", what, kindName(r))
		return ""
	}
	return r.Value
}

// boolean reads true or false; anything else is reported and yields def.
func (l *loader) boolean(n *yaml.Node, what string, def bool) bool {
	r := l.resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && r.Tag == "!!bool" {
		var b bool
		if err := r.Decode(&b); err == nil {
			return b
		}
	}
	got := "nothing"
	if r != nil {
		got = kindName(r)
	}
	l.invalid(n, "write true or false, without quotes", "%s must be true or false, got %s", what, got)
	return def
}

// strList reads a list of scalars with the position of each item; ok as for sequence.
func (l *loader) strList(n *yaml.Node, what, example string) ([]string, []fault.Position, bool) {
	items, ok := l.sequence(n, what, example)
	out := make([]string, 0, len(items))
	pos := make([]fault.Position, 0, len(items))
	for i, it := range items {
		out = append(out, l.str(it, fmt.Sprintf("item #%d of %s", i+1, what)))
		pos = append(pos, l.pos(it))
	}
	return out, pos, ok
}

// value decodes a free-form value (such as an agent option) into string, int64, float64, bool,
// nil, []any or map[string]any. rec, when non-nil, is
// told the key and value position of every mapping key, by dotted path under prefix.
func (l *loader) value(n *yaml.Node, prefix string, depth int, rec func(path string, k, v *yaml.Node)) any {
	r := l.resolve(n)
	if r == nil || !l.spend(n) {
		return nil
	}
	if l.expanding[r] {
		l.invalid(n, "an anchored value cannot contain an alias of itself", "%s refers to itself through the alias *%s", prefix, n.Value)
		return nil
	}
	if depth > maxDepth {
		l.invalid(n, "flatten the value", "%s nests deeper than %d levels", prefix, maxDepth)
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
		entries, _ := l.mapping(n, prefix, "")
		for _, e := range entries {
			p := prefix + "." + e.key
			if rec != nil {
				rec(p, e.k, e.v)
			}
			m[e.key] = l.value(e.v, p, depth+1, rec)
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

// duplicates reports every key defined twice in one mapping, anywhere in the tree, including
// under keys the schema does not know. It does not follow aliases (their targets are in the
// tree already), so it costs one pass over the document.
func (l *loader) duplicates(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.MappingNode {
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if prev, dup := first[k.Value]; dup {
				l.ds.Errorf(l.pos(k), fault.UserYAMLDuplicateKey,
					fmt.Sprintf("first defined at line %d; remove one of them (YAML would silently keep only one)", prev.Line),
					"key %q is defined twice in the same mapping", k.Value)
				continue
			}
			first[k.Value] = k
		}
	}
	for _, c := range n.Content {
		l.duplicates(c)
	}
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
	hint := workflow.DidYouMean(e.key, valid)
	if h, ok := ignoredByReference(e.key, where); ok {
		hint = h
	} else if !strings.HasPrefix(hint, "did you mean") {
		hint = "valid keys " + where + ": " + strings.Join(valid, ", ")
	}
	l.ds.Errorf(l.pos(e.k), code, hint, "unknown key %q %s", e.key, where)
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
	entries, ok := l.mapping(n, b.what, b.example)
	for _, e := range entries {
		if !contains(b.keys, e.key) {
			l.unknownKey(e, b.code, b.where, b.keys)
			continue
		}
		l.record(pm, prefix+e.key, e.k, e.v)
		set(e)
	}
	return ok
}
