package builtins

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// Grep counts what ripgrep counts, file by file, on the whole Go source tree (read in place:
// nothing writes to it): a literal, a regex and Unicode-aware classes (\w, \d inside and outside
// brackets, where Go's RE2 alone would be ASCII and miss lines rg finds: on this tree `"\w+"`
// gives 152,862 lines in rg and 152,486 with ASCII classes).
func TestGrepCountsEqualRipgrepOnGoroot(t *testing.T) {
	if testing.Short() {
		testkit.Skip(t, "-short: the whole-tree comparison with rg is skipped")
	}
	if _, err := exec.LookPath("rg"); err != nil {
		testkit.Skip(t, "rg not installed (apt-get install -y ripgrep): Grep's counts are not compared with it")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(src); err != nil {
		testkit.Skipf(t, "no GOROOT/src: %v", err)
	}
	p, err := New(Options{Root: src, MaxOutputBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, pat := range []string{
		`errors\.New`,
		`func \([a-z]+ \*[A-Z][A-Za-z0-9_]*\) [A-Z][A-Za-z0-9_]*\(`,
		`"\w+"`,
		`[\w]+é`,
		`\w+ö`,
		`\d{4}-\d{2}-\d{2}`,
	} {
		t.Run(pat, func(t *testing.T) {
			ours := grepCounts(t, p, pat)
			theirs, _ := ripgrep(t, src, pat, 1)
			if len(theirs) == 0 {
				t.Fatalf("rg found nothing for %q: the comparison would prove nothing", pat)
			}
			compareCounts(t, ours, theirs)
		})
	}
}
