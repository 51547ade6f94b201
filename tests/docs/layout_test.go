package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestLayoutListsEveryPackage fails when a package under cmd/, internal/ or pkg/ (as `go list
// ./...` finds them) is missing from the layout table of docs/design.md, or when the table names
// a package that no longer exists. Each package is written in full, in backticks, in the first
// column of a table row under the "Layout" heading.
func TestLayoutListsEveryPackage(t *testing.T) {
	root := repoRoot()
	listed := layoutPackages(t, filepath.Join(root, "docs", "design.md"))
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	module := modulePath(t, root)
	actual := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "pkg/") {
			actual[rel] = true
		}
	}
	missing, stale := setDiff(actual, listed)
	if len(missing) > 0 {
		t.Errorf("docs/design.md's layout table misses %d package(s); add a row for each:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("docs/design.md's layout table names %d package(s) that do not exist; remove or rename them:\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
}

var (
	headingRe = regexp.MustCompile(`^(#+)\s+(.*)$`)
	pkgCellRe = regexp.MustCompile("`((?:cmd|internal|pkg)/[A-Za-z0-9_./-]+)`")
)

// layoutPackages returns the package paths in the first column of the tables under the
// "Layout" heading of the design document.
func layoutPackages(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	level := 0
	for _, l := range strings.Split(string(data), "\n") {
		if m := headingRe.FindStringSubmatch(l); m != nil {
			switch {
			case strings.EqualFold(strings.TrimSpace(m[2]), "Layout"):
				level = len(m[1])
			case level > 0 && len(m[1]) <= level:
				level = 0
			}
			continue
		}
		if level == 0 || !strings.HasPrefix(strings.TrimSpace(l), "|") {
			continue
		}
		cells := strings.Split(strings.TrimSpace(l), "|")
		if len(cells) < 2 {
			continue
		}
		for _, m := range pkgCellRe.FindAllStringSubmatch(cells[1], -1) {
			out[strings.TrimSuffix(m[1], "/")] = true
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no layout table (a \"Layout\" heading followed by rows naming packages in backticks)", file)
	}
	return out
}

func modulePath(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

// setDiff returns, sorted, the keys of have missing from want and the keys of want missing
// from have: what a documentation table lacks and what it names in vain.
func setDiff(have, want map[string]bool) (missing, stale []string) {
	for k := range have {
		if !want[k] {
			missing = append(missing, k)
		}
	}
	for k := range want {
		if !have[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	return missing, stale
}
