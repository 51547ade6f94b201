package arch_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeLiteral matches a quoted error code of the form CATEGORY.SUB.SPECIFIC (or a shorter
// malformed one, which is itself a finding).
var codeLiteral = regexp.MustCompile(`"(USER|WORKFLOW|EXECUTION|SYSTEM|INTERRUPT)\.[A-Z0-9_.]+"`)

// threeParts is the only shape a code may take.
var threeParts = regexp.MustCompile(`^"(USER|WORKFLOW|EXECUTION|SYSTEM|INTERRUPT)\.[A-Z0-9_]+\.[A-Z0-9_]+"$`)

// TestCodesLiveInTheRegistry keeps one registry of error codes: production code outside
// internal/domain/fault/codes_*.go names codes through its constants, never by retyping the
// string, and every code in the registry has the three-part form and is written once.
func TestCodesLiveInTheRegistry(t *testing.T) {
	root := repoRoot()
	seen := map[string]string{}
	for _, dir := range []string{"internal", "cmd", "pkg"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			registry := strings.HasPrefix(rel, filepath.Join("internal", "domain", "fault", "codes_"))
			for _, lit := range codeLiteral.FindAllString(string(b), -1) {
				switch {
				case !registry:
					t.Errorf("%s: code %s is written outside the registry; use its constant in internal/domain/fault", rel, lit)
				case !threeParts.MatchString(lit):
					t.Errorf("%s: code %s does not have the form CATEGORY.SUB.SPECIFIC", rel, lit)
				case seen[lit] != "":
					t.Errorf("%s: code %s is already defined in %s", rel, lit, seen[lit])
				default:
					seen[lit] = rel
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 50 {
		t.Fatalf("found only %d codes in the registry; the scan is looking in the wrong place", len(seen))
	}
}
