package docs

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	designRe = regexp.MustCompile(`DESIGN\s*§\s*[0-9]+`)
	issueRe  = regexp.MustCompile(`\b[Ii]ssues?\s+#?([0-9]+)\b`)
	docsRe   = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(docs/[A-Za-z0-9_./-]*[A-Za-z0-9_])(#[A-Za-z0-9_-]+)?`)
)

// TestCitationsResolve fails when a Go comment cites a document that is not in the repository:
// the original design (its name and a section sign, outside the repo: cite
// docs/design.md#<section>), an issue by number without its decision record in docs/decisions (its number in four digits, then a title), or a docs/ path
// (with its #anchor) that does not exist. The Makefile and .go-arch-lint.yml are held to the
// design rule too. tools/cite-rewrite.sh rewrites the old citations into docs/ paths.
func TestCitationsResolve(t *testing.T) {
	root := repoRoot()
	var problems []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, c := range comments(rel, src) {
			for _, msg := range checkCitations(root, c.text) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s", rel, c.line, msg))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"Makefile", ".go-arch-lint.yml"} {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			if designRe.MatchString(l) {
				problems = append(problems, fmt.Sprintf("%s:%d: cites %q, which is not in the repository (cite docs/design.md#<section>)", rel, i+1, designRe.FindString(l)))
			}
		}
	}
	if len(problems) > 0 {
		t.Errorf("%d citation(s) of documents that are not in the repository (tools/cite-rewrite.sh rewrites the known ones):\n%s",
			len(problems), strings.Join(problems, "\n"))
	}
}

// comment is one comment of a Go file, with the line it starts on.
type comment struct {
	line int
	text string
}

// comments returns the comments of a Go source file; it reads tokens only, so a file another
// change has left half-edited is still read.
func comments(name string, src []byte) []comment {
	fset := token.NewFileSet()
	f := fset.AddFile(name, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var out []comment
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT {
			out = append(out, comment{fset.Position(pos).Line, lit})
		}
	}
}

// checkCitations returns what is wrong with the citations in one comment.
func checkCitations(root, text string) []string {
	var out []string
	for _, m := range designRe.FindAllString(text, -1) {
		out = append(out, fmt.Sprintf("cites %q, the original design, which is not in the repository (cite docs/design.md#<section>)", m))
	}
	for _, m := range issueRe.FindAllStringSubmatch(text, -1) {
		if decisionRecord(root, m[1]) == "" {
			out = append(out, fmt.Sprintf("cites %q, which has no decision record docs/decisions/%04s-*.md", m[0], m[1]))
		}
	}
	for _, m := range docsRe.FindAllStringSubmatch(text, -1) {
		if msg := checkDocPath(root, m[1], strings.TrimPrefix(m[2], "#")); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// decisionRecord returns the decision record of issue n, or "".
func decisionRecord(root, n string) string {
	var num int
	if _, err := fmt.Sscan(n, &num); err != nil {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(root, "docs", "decisions", fmt.Sprintf("%04d-*.md", num)))
	if len(matches) == 0 {
		return ""
	}
	return matches[0]
}

// checkDocPath says what is wrong with a cited docs/ path and anchor, or "".
func checkDocPath(root, path, anchor string) string {
	full := filepath.Join(root, filepath.FromSlash(path))
	info, err := os.Stat(full)
	if err != nil {
		return fmt.Sprintf("cites %s, which is not in the repository", path)
	}
	if anchor == "" {
		return ""
	}
	if info.IsDir() {
		return fmt.Sprintf("cites %s#%s, but %s is a directory", path, anchor, path)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return fmt.Sprintf("cannot read %s: %v", path, err)
	}
	if !anchors(string(data))[anchor] {
		return fmt.Sprintf("cites %s#%s, but %s has no heading with that anchor", path, anchor, path)
	}
	return ""
}

var idRe = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)

// anchors returns the anchors of a Markdown document: GitHub's slug of each heading (the first
// occurrence) and explicit <a id="…"> anchors.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := headingRe.FindStringSubmatch(l); m != nil {
			out[slug(m[2])] = true
		}
		for _, m := range idRe.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetter(r rune) bool { return strings.ToUpper(string(r)) != strings.ToLower(string(r)) }

// TestSlug pins the anchor rule against headings of this repository's documents.
func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Tool-call paths":              "tool-call-paths",
		"The `mcp_proxy:` block":       "the-mcp_proxy-block",
		"Departures from the design":   "departures-from-the-design",
		"Runs, resume and history (§)": "runs-resume-and-history-",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// oldDesign is how comments cited the design before it moved into docs/, spelt in two parts so
// that this file holds no such citation itself.
const oldDesign = "DES" + "IGN §"

// TestCitationChecker pins what counts as a dangling citation.
func TestCitationChecker(t *testing.T) {
	root := repoRoot()
	for text, bad := range map[string]bool{
		"// see " + oldDesign + "2":                true,
		"// (" + "issue" + " 9999)":                true,
		"// docs/no-such-file.md":                  true,
		"// docs/design.md#no-such-section-at-all": true,
		"// docs/design.md#layout":                 false,
		"// github.com/x/docs/y is not ours":       false,
		"// plain prose":                           false,
	} {
		if got := len(checkCitations(root, text)) > 0; got != bad {
			t.Errorf("checkCitations(%q) flags = %v, want %v: %v", text, got, bad, checkCitations(root, text))
		}
	}
}
