package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// block is one fenced code block of a Markdown file, with the markers written above it.
type block struct {
	file    string // relative to the repository root
	line    int    // of the opening fence, from 1
	lang    string
	text    string   // the block's lines, the fence's indentation removed
	markers []marker // in file order
}

// marker is one `<!-- key: value -->` comment above a fence.
type marker struct{ key, value string }

func (b block) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// has returns the value of the first marker named key.
func (b block) has(key string) (string, bool) {
	for _, m := range b.markers {
		if m.key == key {
			return m.value, true
		}
	}
	return "", false
}

var (
	fenceRe  = regexp.MustCompile("^([ \t]*)(```+)[ \t]*([A-Za-z0-9_+-]*)")
	markerRe = regexp.MustCompile(`^\s*<!--\s*([a-z-]+)\s*(?::\s*(.*?))?\s*-->\s*$`)
)

// knownMarkers are the marker keys a block may carry (markers.go of the brief, in prose in
// docs/reference/docs-tests.md). An unknown key is an error, so a typo cannot turn a check off.
var knownMarkers = map[string]bool{
	"not-run": true, "run": true, "invalid": true, "file": true, "wrap": true, "exit": true,
}

// blocks returns the fenced blocks of the Markdown file at rel (relative to root).
func blocks(t *testing.T, root, rel string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		m := fenceRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, fence, lang := m[1], m[2], strings.ToLower(m[3])
		b := block{file: rel, line: i + 1, lang: lang, markers: markersAbove(t, rel, lines, i)}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimLeft(lines[j], " \t"), fence) && strings.TrimSpace(strings.TrimLeft(lines[j], " \t")) == fence {
				break
			}
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			t.Errorf("%s:%d: the fence is never closed", rel, i+1)
		}
		b.text = strings.Join(body, "\n") + "\n"
		out = append(out, b)
		i = j
	}
	return out
}

// markersAbove collects the marker comments written above line i, blank lines allowed between.
func markersAbove(t *testing.T, rel string, lines []string, i int) []marker {
	var out []marker
	for k := i - 1; k >= 0; k-- {
		s := strings.TrimSpace(lines[k])
		if s == "" {
			continue
		}
		m := markerRe.FindStringSubmatch(s)
		if m == nil {
			break
		}
		if !knownMarkers[m[1]] {
			t.Errorf("%s:%d: unknown marker %q (known: not-run, run, invalid, file, wrap, exit)", rel, k+1, m[1])
		}
		out = append([]marker{{m[1], m[2]}}, out...)
	}
	return out
}

// markdownFiles are README.md and every Markdown file under docs/, sorted.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files[1:])
	return files
}

// repoRoot is the module root of the tree these tests were compiled from.
func repoRoot() string { return filepath.Clean(testkit.RepoRoot()) }

// TestMarkdownParser pins the fence and marker reading the example test relies on.
func TestMarkdownParser(t *testing.T) {
	dir := t.TempDir()
	md := "# t\n\n<!-- file: a.yaml -->\n\n<!-- run: -i x=1 -->\n```yaml\nname: a\n```\n\n- item\n\n  ```sh\n  echo hi\n  ```\n\n```go\nx\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	bs := blocks(t, dir, "x.md")
	if len(bs) != 3 {
		t.Fatalf("got %d blocks, want 3: %+v", len(bs), bs)
	}
	if v, ok := bs[0].has("file"); !ok || v != "a.yaml" {
		t.Errorf("file marker = %q %v", v, ok)
	}
	if v, ok := bs[0].has("run"); !ok || v != "-i x=1" {
		t.Errorf("run marker = %q %v", v, ok)
	}
	if bs[0].text != "name: a\n" || bs[0].line != 6 {
		t.Errorf("block 0 = %q at %d", bs[0].text, bs[0].line)
	}
	if bs[1].lang != "sh" || bs[1].text != "echo hi\n" || len(bs[1].markers) != 0 {
		t.Errorf("indented block = %+v", bs[1])
	}
	if bs[2].lang != "go" {
		t.Errorf("block 2 lang = %q", bs[2].lang)
	}
}
