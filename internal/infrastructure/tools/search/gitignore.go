package search

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	pattern  string // doublestar pattern, without "!", leading "/" or trailing "/"
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains "/": matched against the path below the .gitignore's directory
	kind     ruleKind
	lit      string // the literal for the fast kinds
}

// ruleKind selects a fast path; most real rules are a plain name or "*.ext".
type ruleKind uint8

const (
	ruleGlob   ruleKind = iota // doublestar match
	ruleName                   // exact name
	ruleSuffix                 // "*" followed by a literal
)

// ignoreNode holds the rules of one .gitignore and links to the rules of the directories above
// it. Directories without a .gitignore share their parent's node.
type ignoreNode struct {
	parent *ignoreNode
	dir    string // directory of the .gitignore, relative to the walk's anchor; "" for the anchor
	rules  []ignoreRule
}

// parseGitignore reads the rules of a .gitignore file with git's syntax: blank lines and "#"
// comments are skipped, "\#" and "\!" escape, trailing spaces are dropped unless escaped, "!"
// negates, a trailing "/" matches directories only, a pattern containing "/" elsewhere is
// anchored to the file's directory, and "**" matches across directories. Global excludes and
// .git/info/exclude are not read.
func parseGitignore(data []byte) []ignoreRule {
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if r, ok := parseIgnoreLine(sc.Text()); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

func parseIgnoreLine(line string) (ignoreRule, bool) {
	line = strings.TrimSuffix(line, "\r")
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if line == "" || line[0] == '#' {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if line[0] == '!' {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimLeft(line, "/")
	}
	if line == "" || !doublestar.ValidatePattern(line) {
		return ignoreRule{}, false
	}
	r.pattern = line
	switch {
	case r.anchored:
	case !strings.ContainsAny(line, `*?[{\`):
		r.kind, r.lit = ruleName, line
	case line[0] == '*' && !strings.ContainsAny(line[1:], `*?[{\`):
		r.kind, r.lit = ruleSuffix, line[1:]
	}
	return r, true
}

// match reports whether the rule matches an entry: sub is its path below the rule's directory,
// name its last element.
func (r *ignoreRule) match(sub, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	switch r.kind {
	case ruleName:
		return name == r.lit
	case ruleSuffix:
		return strings.HasSuffix(name, r.lit)
	}
	if r.anchored {
		return doublestar.MatchUnvalidated(r.pattern, sub)
	}
	return doublestar.MatchUnvalidated(r.pattern, name)
}

// ignored reports whether the entry at rel (relative to the anchor, "/"-separated) is ignored.
// As in git, the last matching rule wins and deeper files override shallower ones.
func (n *ignoreNode) ignored(rel, name string, isDir bool) bool {
	for node := n; node != nil; node = node.parent {
		sub := rel
		if node.dir != "" {
			if !strings.HasPrefix(rel, node.dir+"/") {
				continue
			}
			sub = rel[len(node.dir)+1:]
		}
		for i := len(node.rules) - 1; i >= 0; i-- {
			if node.rules[i].match(sub, name, isDir) {
				return !node.rules[i].negate
			}
		}
	}
	return false
}

// readSmallRegular reads a regular file of at most limit bytes; anything else (a FIFO named
// .gitignore must not hang the walk, a symlink is not followed) is an error.
func readSmallRegular(c *rootfs.Root, path string, limit int64) ([]byte, error) {
	fi, err := c.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, os.ErrInvalid
	}
	f, err := c.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// loadIgnore returns parent extended with the .gitignore in absDir (rel is its path relative to
// the anchor), or parent itself when there is none or it has no rules.
func loadIgnore(c *rootfs.Root, parent *ignoreNode, absDir, rel string) *ignoreNode {
	data, err := readSmallRegular(c, absDir+"/.gitignore", 1<<20)
	if err != nil || len(data) == 0 {
		return parent
	}
	rules := parseGitignore(data)
	if len(rules) == 0 {
		return parent
	}
	return &ignoreNode{parent: parent, dir: rel, rules: rules}
}
