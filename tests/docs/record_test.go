package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestActivityRecordDocumented fails when a JSON field of the activity record (the json tags of
// internal/infrastructure/activitylog) is missing from docs/reference/activity-record.md.
func TestActivityRecordDocumented(t *testing.T) {
	root := repoRoot()
	files, _ := filepath.Glob(filepath.Join(root, "internal", "infrastructure", "activitylog", "*.go"))
	tagRe := regexp.MustCompile("json:\"([a-z_]+)[,\"]")
	fields := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tagRe.FindAllStringSubmatch(string(data), -1) {
			fields[m[1]] = true
		}
	}
	if len(fields) == 0 {
		t.Fatal("found no json fields in internal/infrastructure/activitylog")
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "reference", "activity-record.md"))
	if err != nil {
		t.Fatal(err)
	}
	for f := range fields {
		if !strings.Contains(string(doc), "`"+f+"`") {
			t.Errorf("docs/reference/activity-record.md does not describe the field %q", f)
		}
	}
}
