package strictyaml

import "gopkg.in/yaml.v3"

// Mapping returns the entries of a mapping node in file order, keeping the first of duplicate
// keys and expanding `<<:` merge keys (explicit keys win over merged ones, earlier merges over later).
// A null node is an empty mapping; any other kind is reported, yields nothing, and ok false.
func (r *Reader) Mapping(n *yaml.Node, what, example string) (entries []Entry, ok bool) {
	return r.mappingDepth(n, what, example, 0)
}

func (r *Reader) mappingDepth(n *yaml.Node, what, example string, depth int) ([]Entry, bool) {
	rn := r.Resolve(n)
	if IsNull(rn) {
		return nil, rn != nil
	}
	if rn.Kind != yaml.MappingNode {
		hint := "write it as a mapping of keys"
		if example != "" {
			hint = "write it as a mapping, e.g. " + example
		}
		r.Invalid(n, hint, "%s must be a mapping, got %s", what, KindName(rn))
		return nil, false
	}
	var out []Entry
	var merges []*yaml.Node
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(rn.Content); i += 2 {
		k, v := rn.Content[i], rn.Content[i+1]
		kr := r.Resolve(k)
		if kr == nil {
			continue
		}
		if kr.Kind != yaml.ScalarNode {
			r.Invalid(k, "use a plain word as the key", "keys of %s must be plain words, got %s", what, KindName(kr))
			continue
		}
		if kr.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if _, dup := first[kr.Value]; dup {
			continue // reported by Duplicates, which sees the whole tree
		}
		first[kr.Value] = k
		out = append(out, Entry{Key: kr.Value, K: k, V: v})
	}
	for _, m := range merges {
		for _, src := range r.mergeSources(m, what) {
			if depth >= maxMergeDepth {
				r.Invalid(m, "merge plain mappings, not mappings that merge others in turn", "merges in %s nest too deeply", what)
				return out, true
			}
			merged, _ := r.mappingDepth(src, what, "", depth+1)
			for _, e := range merged {
				if !r.Spend(e.K) {
					return out, true
				}
				if _, ok := first[e.Key]; !ok {
					first[e.Key] = e.K
					out = append(out, e)
				}
			}
		}
	}
	return out, true
}

// mergeSources returns the mappings a `<<:` value merges: one mapping or a list of them.
func (r *Reader) mergeSources(n *yaml.Node, what string) []*yaml.Node {
	rn := r.Resolve(n)
	if rn == nil {
		return nil
	}
	if rn.Kind == yaml.SequenceNode {
		return rn.Content
	}
	if rn.Kind != yaml.MappingNode {
		r.Invalid(n, "merge a mapping, e.g. `<<: *defaults`", "the merge key `<<` in %s needs a mapping, got %s", what, KindName(rn))
		return nil
	}
	return []*yaml.Node{rn}
}
