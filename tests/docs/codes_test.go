package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var codeRe = regexp.MustCompile(`\b(?:USER|WORKFLOW|EXECUTION|SYSTEM|INTERRUPT)\.[A-Z_]+\.[A-Z_]+\b`)

// TestErrorCodesDocumented fails when a code of internal/domain/fault/codes_*.go is missing from
// docs/reference/error-codes.md, or when that page lists a code awf does not have.
func TestErrorCodesDocumented(t *testing.T) {
	root := repoRoot()
	files, _ := filepath.Glob(filepath.Join(root, "internal", "domain", "fault", "codes_*.go"))
	if len(files) == 0 {
		t.Fatal("no internal/domain/fault/codes_*.go")
	}
	inCode := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"([A-Z]+\.[A-Z_]+\.[A-Z_]+)"`).FindAllStringSubmatch(string(data), -1) {
			inCode[m[1]] = true
		}
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "reference", "error-codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	inDocs := map[string]bool{}
	for _, m := range codeRe.FindAllString(string(data), -1) {
		inDocs[m] = true
	}
	missing, stale := setDiff(inCode, inDocs)
	if len(missing) > 0 {
		t.Errorf("docs/reference/error-codes.md misses %d code(s):\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("docs/reference/error-codes.md lists %d code(s) awf does not have:\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
	// Every code any page names must exist too.
	for _, rel := range markdownFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			for _, c := range codeRe.FindAllString(l, -1) {
				if !inCode[c] {
					t.Errorf("%s:%d names %s, which awf does not have", rel, i+1, c)
				}
			}
		}
	}
}
