package workflow

import "sync"

// Arity is how many arguments a template function takes, a piped value included. Max < 0 means
// any number from Min up.
type Arity struct{ Min, Max int }

// TemplateFuncs are the functions a workflow template may call, with their arities: Go's
// text/template builtins, and the functions the runner adds. Validation refuses any other
// name and any other count of arguments, as the runner would, only earlier and with a
// position. The runner's own function table is tested against this one, so a function added
// to the runner must be added here (the namespaces of TemplateRoots are functions too, of no
// argument, and need no entry). The table is built on first use, not at package init: awf
// mcp-serve, spawned per agent step, links this package and never validates a template.
var TemplateFuncs = sync.OnceValue(func() map[string]Arity {
	return map[string]Arity{
		// text/template builtins
		"and": {1, -1}, "or": {1, -1}, "not": {1, 1}, "len": {1, 1}, "index": {1, -1}, "slice": {1, 4},
		"print": {0, -1}, "printf": {1, -1}, "println": {0, -1}, "html": {0, -1}, "js": {0, -1}, "urlquery": {0, -1},
		"call": {1, -1}, "eq": {2, -1}, "ne": {2, 2}, "lt": {2, 2}, "le": {2, 2}, "gt": {2, 2}, "ge": {2, 2},
		// the runner's
		"raw": {1, 1}, "quote": {1, 1},
		// the reference's helpers
		"json": {1, 1}, "split": {2, 2}, "join": {2, 2}, "trimSpace": {1, 1}, "escape": {1, 1}, "readFile": {1, 1},
		"lines": {1, 1},
	}
})

// Kinds of values, as template comparisons see them; "" is a value whose kind is not known
// before the run.
const (
	KindString = "string"
	KindInt    = "integer"
	KindFloat  = "number"
	KindBool   = "boolean"
	KindList   = "list"
	KindMap    = "mapping"
)

// comparisons are the builtins that fail on operands of unlike kinds; ordered ones also fail on
// booleans, lists and mappings.
var comparisons = map[string]bool{"eq": false, "ne": false, "lt": true, "le": true, "gt": true, "ge": true}

// inputKind is the kind an input's value has in templates.
func inputKind(t InputType) string {
	switch t {
	case InputInteger:
		return KindInt
	case InputNumber:
		return KindFloat
	case InputBoolean:
		return KindBool
	case InputArray:
		return KindList
	}
	return KindString
}
