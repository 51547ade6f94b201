package docs

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var linkRe = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksResolve fails when a relative link of README.md or docs/ points at a file or an
// #anchor that does not exist.
func TestLinksResolve(t *testing.T) {
	root := repoRoot()
	for _, rel := range markdownFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				inFence = !inFence
			}
			if inFence {
				continue
			}
			for _, m := range linkRe.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				if file == "" {
					file = rel
				} else {
					file = path.Join(path.Dir(rel), file)
				}
				if msg := checkDocPath(root, file, anchor); msg != "" {
					t.Errorf("%s:%d: link %s: %s", rel, i+1, target, msg)
				}
			}
		}
	}
}

// TestReadmeIsAFrontDoor keeps README.md short: what awf is, the two commands, one workflow and
// links into docs/; the manual lives in docs/.
func TestReadmeIsAFrontDoor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n >= 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move the rest into docs/", n)
	}
	for _, want := range []string{"make demo", "make test", "docs/getting-started.md", "docs/design.md"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not mention %s", want)
		}
	}
}
