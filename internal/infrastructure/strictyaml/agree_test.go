package strictyaml_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// The same mapping body, read once as a workflow state and once as a plugin of plugins.yaml.
// Both prefixes are five lines long, so a body line has the same number in both files.
const (
	workflowPrefix = "name: w\nstates:\n  initial: p\n  p:\n    type: step\n"
	pluginsPrefix  = "plugins:\n  p:\n    args: []\n\n\n"
)

// readBoth returns what each reader made of the body: the command it found, and the positions
// of the duplicate keys it reported.
func readBoth(t *testing.T, body string) (wfCommand, plCommand string, wfDups, plDups []string) {
	t.Helper()
	w, ds := yamlrepo.Parse("w.yaml", []byte(workflowPrefix+body))
	if st := w.States["p"]; st != nil && st.Command() != nil {
		wfCommand = st.Command().Command
	}
	wfDups = duplicates(ds)
	m, err := plugins.ParseManifest("p.yaml", []byte(pluginsPrefix+body))
	switch {
	case err == nil:
		plCommand = m.Specs[0].Command
	default:
		var de ports.DiagnosticsError
		if !errors.As(err, &de) {
			t.Fatalf("plugins.yaml: %v", err)
		}
		plDups = duplicates(de.Diagnostics())
	}
	return wfCommand, plCommand, wfDups, plDups
}

func duplicates(ds fault.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Code == fault.UserYAMLDuplicateKey {
			out = append(out, fmt.Sprintf("%d:%d", d.Line, d.Column))
		}
	}
	return out
}

// TestWorkflowsAndPluginsReadYAMLAlike: merge keys (`<<:`, tagged !!merge by YAML) and duplicate
// keys mean the same in a workflow and in plugins.yaml. The plugins reader once refused every
// merge key and counted two of them as a duplicate, while the workflow reader expanded them.
func TestWorkflowsAndPluginsReadYAMLAlike(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    string
		command string   // what both must find; "" when the file is invalid
		dups    []string // duplicate keys both must report
	}{
		{"merged", "    <<: {command: merged}\n", "merged", nil},
		{"explicit key wins", "    <<: {command: merged}\n    command: explicit\n", "explicit", nil},
		{"earlier merge wins", "    <<: [{command: first}, {command: second}]\n", "first", nil},
		{"two merge keys are no duplicate", "    <<: {command: one}\n    <<: {args: [x]}\n", "one", nil},
		{"merge through an alias", "    command: &c aliased\n    <<: {command: *c}\n", "aliased", nil},
		{"duplicate key", "    command: a\n    command: b\n", "", []string{"7:5"}},
		{"duplicate inside a merged mapping", "    <<: {command: a, command: b}\n", "", []string{"6:22"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wf, pl, wfDups, plDups := readBoth(t, tc.body)
			if tc.command != "" && (wf != tc.command || pl != tc.command) {
				t.Fatalf("command: workflow %q, plugins.yaml %q; want %q in both", wf, pl, tc.command)
			}
			want := strings.Join(tc.dups, " ")
			if got := strings.Join(wfDups, " "); got != want {
				t.Errorf("workflow duplicate keys at %q, want %q", got, want)
			}
			if got := strings.Join(plDups, " "); got != want {
				t.Errorf("plugins.yaml duplicate keys at %q, want %q", got, want)
			}
		})
	}
}
