package yamlrepo

import (
	"fmt"
	"math"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// The keys of the control-flow kinds: parallel, for_each and while.

func (l *loader) parallelKey(p *workflow.ParallelSpec, f entry, spm posMaps) {
	switch f.Key {
	case "parallel":
		p.Branches = l.names(f, spm)
	case "strategy":
		p.Strategy = workflow.Strategy(l.str(f.V, "strategy"))
	case "max_concurrent":
		p.MaxConcurrent = l.count(f.V, "max_concurrent")
	}
}

func (l *loader) forEachKey(fe *workflow.ForEachSpec, f entry, spm posMaps) {
	if f.Key == "max_concurrent" {
		fe.MaxConcurrent = l.count(f.V, "max_concurrent")
		return
	}
	if f.Key != "items" {
		l.loopKey(&fe.LoopSpec, f, spm)
		return
	}
	r := l.Resolve(f.V)
	if r != nil && r.Kind == yaml.SequenceNode {
		fe.IsList = true
		fe.ItemList = make([]any, 0, len(r.Content))
		for i, it := range r.Content {
			path := fmt.Sprintf("items[%d]", i)
			spm.values[path] = l.Pos(it)
			fe.ItemList = append(fe.ItemList, l.value(it, path, 0, nil))
		}
		return
	}
	if r != nil && r.Kind == yaml.MappingNode {
		l.Invalid(f.V, "write a list, e.g. `items: [a, b]`, or a template giving a JSON list, e.g. `items: '{{.inputs.files}}'`",
			"items must be a list, or text giving a JSON list, got %s", strictyaml.KindName(r))
		return
	}
	fe.Items = l.str(f.V, "items")
}

func (l *loader) whileKey(w *workflow.WhileSpec, f entry, spm posMaps) {
	if f.Key == "while" {
		w.While = l.str(f.V, "while")
		return
	}
	l.loopKey(&w.LoopSpec, f, spm)
}

// loopKey decodes the keys both loops share.
func (l *loader) loopKey(lp *workflow.LoopSpec, f entry, spm posMaps) {
	switch f.Key {
	case "body":
		lp.Body = l.names(f, spm)
	case "max_iterations":
		r := l.Resolve(f.V)
		if r != nil && r.Kind == yaml.ScalarNode && r.Tag == "!!str" {
			lp.MaxIterationsExpr = r.Value
			return
		}
		lp.MaxIterations = l.count(f.V, "max_iterations")
	case "break_when":
		lp.BreakWhen = l.str(f.V, "break_when")
	case "on_complete":
		lp.OnComplete = l.str(f.V, "on_complete")
	case "on_exhausted":
		lp.OnExhausted = l.str(f.V, "on_exhausted")
	}
}

// names reads a list of state names, recording where each is written as key[i]. A value that
// is no list is reported here, and not again as an empty body.
func (l *loader) names(f entry, spm posMaps) []string {
	names, pos, ok := l.strList(f.V, f.Key, fmt.Sprintf("`%s: [build, test]`", f.Key))
	if !ok {
		l.hush(f.K)
	}
	for i, p := range pos {
		spm.values[fmt.Sprintf("%s[%d]", f.Key, i)] = p
	}
	return names
}

// count reads a whole number; anything else is reported (by number) and yields 0.
func (l *loader) count(n *yaml.Node, what string) int {
	f := l.number(n, what, true)
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	if f < math.MinInt32 {
		return math.MinInt32
	}
	return int(f)
}
