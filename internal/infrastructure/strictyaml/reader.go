// Package strictyaml reads the YAML files a user writes for awf (workflows and plugins.yaml) the
// same strict way: every key defined twice in a mapping is an error, `<<:` merge keys are
// expanded (explicit keys win over merged ones, earlier merges over later), aliases are followed
// within a budget so that a small hostile file cannot expand without bound, and a node of the
// wrong kind is reported where it is written, without stopping at the first problem. The two
// readers kept their own copies of this once, and they drifted: one expanded merge keys, the
// other refused them and counted two of them as a duplicate key.
package strictyaml

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Limits that keep a hostile or broken file from costing more than a moment: aliases can make
// a small file expand without bound ("billion laughs"), and anchors can refer to themselves.
const (
	MaxExpansions = 100_000 // alias resolutions and free-form nodes decoded, per file
	MaxDepth      = 64      // nesting inside free-form values (a step's options, a plugin's config)
	maxAliasHops  = 64      // an alias of an alias of …
	maxMergeDepth = 8       // `<<:` merges inside merged mappings
)

// Reader walks one file's nodes and collects its diagnostics. The zero value reports with an
// empty file name and code; set File and Code.
type Reader struct {
	File string
	// Code is the fault code of a node of the wrong kind: the file's own INVALID_VALUE.
	Code  string
	Diags fault.Diagnostics

	expansions int
	exhausted  bool
}

// Entry is one key of a mapping: its name and the key and value nodes as written.
type Entry struct {
	Key  string
	K, V *yaml.Node
}

// Pos is where n is written.
func (r *Reader) Pos(n *yaml.Node) fault.Position {
	return fault.Position{File: r.File, Line: n.Line, Column: n.Column}
}

// Invalid reports a node of the wrong kind or value, with Code.
func (r *Reader) Invalid(n *yaml.Node, hint, format string, args ...any) {
	r.Diags.Errorf(r.Pos(n), r.Code, hint, format, args...)
}

// Spend counts an expansion and reports, once, when the file exceeds the budget.
func (r *Reader) Spend(n *yaml.Node) bool {
	r.expansions++
	if r.expansions <= MaxExpansions {
		return true
	}
	if !r.exhausted {
		r.exhausted = true
		r.Invalid(n, "remove the aliases (*name) that expand to large values",
			"the aliases of this file expand to more than %d values", MaxExpansions)
	}
	return false
}

// Resolve follows aliases to the node they stand for. Plain nodes cost nothing; each alias
// costs one expansion, and nil is returned once the budget is spent or the chain is too long.
func (r *Reader) Resolve(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops >= maxAliasHops || !r.Spend(n) {
			return nil
		}
		n = n.Alias
	}
	return n
}

// IsNull reports an absent value (`key:` or `key: ~`), which every key treats as not given.
func IsNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// KindName says what a node is, in the words of the error messages.
func KindName(n *yaml.Node) string {
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

// Duplicates reports every key defined twice in one mapping, anywhere in the tree, including
// under keys no schema knows. `<<` merge keys are not keys of the mapping (Mapping expands them),
// so two of them are no duplicate. It does not follow aliases (their targets are in the tree
// already), so it costs one pass over the document.
func (r *Reader) Duplicates(n *yaml.Node) {
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
				r.Diags.Errorf(r.Pos(k), fault.UserYAMLDuplicateKey,
					fmt.Sprintf("first defined at line %d; remove one of them (YAML would silently keep only one)", prev.Line),
					"key %q is defined twice in the same mapping", k.Value)
				continue
			}
			first[k.Value] = k
		}
	}
	for _, c := range n.Content {
		r.Duplicates(c)
	}
}
