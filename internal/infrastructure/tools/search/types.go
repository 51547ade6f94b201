package search

import (
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// fileTypes maps Grep's type names to file-name globs. The names and globs follow ripgrep's
// --type-list (13.0), with the newer module extensions of js/ts/py added and a few aliases
// (yml, rs, python, proto …) a model may reach for. Built on first use: a map literal is
// code run at every start of every step's server (the docs/decisions/0015-performance-at-the-floor.md cold start), for a Grep argument
// few calls give.
var fileTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
		"cmake":    {"*.cmake", "CMakeLists.txt"},
		"cpp":      {"*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"},
		"csharp":   {"*.cs"},
		"css":      {"*.css", "*.scss"},
		"csv":      {"*.csv"},
		"dart":     {"*.dart"},
		"docker":   {"*Dockerfile*"},
		"elixir":   {"*.eex", "*.ex", "*.exs"},
		"erlang":   {"*.erl", "*.hrl"},
		"go":       {"*.go"},
		"gradle":   {"*.gradle"},
		"h":        {"*.h", "*.hpp"},
		"haskell":  {"*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"},
		"html":     {"*.ejs", "*.htm", "*.html"},
		"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
		"js":       {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
		"json":     {"*.json", "composer.lock"},
		"jsonl":    {"*.jsonl"},
		"kotlin":   {"*.kt", "*.kts"},
		"less":     {"*.less"},
		"lua":      {"*.lua"},
		"make":     {"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"},
		"md":       {"*.markdown", "*.md", "*.mdown", "*.mkdn", "*.mdx"},
		"objc":     {"*.h", "*.m"},
		"ocaml":    {"*.ml", "*.mli", "*.mll", "*.mly"},
		"perl":     {"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"},
		"php":      {"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"},
		"protobuf": {"*.proto"},
		"py":       {"*.py", "*.pyi"},
		"r":        {"*.R", "*.Rmd", "*.Rnw", "*.r"},
		"rst":      {"*.rst"},
		"ruby":     {"*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"},
		"rust":     {"*.rs"},
		"sass":     {"*.sass", "*.scss"},
		"scala":    {"*.sbt", "*.scala"},
		"sh":       {"*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc"},
		"sql":      {"*.psql", "*.sql"},
		"swift":    {"*.swift"},
		"tex":      {"*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"},
		"tf":       {"*.tf", "*.tfvars"},
		"toml":     {"*.toml", "Cargo.lock"},
		"ts":       {"*.ts", "*.tsx", "*.mts", "*.cts"},
		"txt":      {"*.txt"},
		"xml":      {"*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"},
		"yaml":     {"*.yaml", "*.yml"},
		"zig":      {"*.zig"},
	}
})

// typeAliases are other names models use for the same types; built on first use as fileTypes.
var typeAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"markdown": "md", "yml": "yaml", "rs": "rust", "python": "py", "javascript": "js",
		"typescript": "ts", "golang": "go", "proto": "protobuf", "shell": "sh", "bash": "sh",
		"rb": "ruby", "cs": "csharp", "kt": "kotlin", "c++": "cpp", "text": "txt", "terraform": "tf",
	}
})

// nameFilter decides by file name alone; it backs Grep's type argument. Simple "*.ext" globs
// become suffix checks so that filtering costs nothing next to reading the file.
type nameFilter struct {
	suffixes []string
	globs    []string
}

// typeFilter returns the filter of a type name, or ok false for an unknown type.
func typeFilter(name string) (*nameFilter, bool) {
	key := strings.ToLower(name)
	if alias, ok := typeAliases()[key]; ok {
		key = alias
	}
	globs, ok := fileTypes()[key]
	if !ok {
		return nil, false
	}
	f := &nameFilter{}
	for _, g := range globs {
		if rest, ok := strings.CutPrefix(g, "*"); ok && !strings.ContainsAny(rest, "*?[{\\") {
			f.suffixes = append(f.suffixes, rest)
		} else {
			f.globs = append(f.globs, g)
		}
	}
	return f, true
}

func (f *nameFilter) match(name string) bool {
	for _, s := range f.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	for _, g := range f.globs {
		if doublestar.MatchUnvalidated(g, name) {
			return true
		}
	}
	return false
}

// typeNames lists the known type names for error messages.
func typeNames() string {
	names := make([]string, 0, len(fileTypes()))
	for n := range fileTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
