package plugins

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// repo adapts yamlrepo to ports.WorkflowRepository, as cmd/awf does.
type repo struct{ yamlrepo.Repository }

func (repo) Load(path string) (*workflow.Workflow, fault.Diagnostics, error) {
	return yamlrepo.Load(path)
}

// TestValidationAgainstRealPlugins runs the validation service with PluginCheck over a workflow
// file and the real example plugins: every plugin code comes out at its file:line:col.
func TestValidationAgainstRealPlugins(t *testing.T) {
	bins := plugintest.Build(t, "echo", "notes")
	root, file := plugintest.Project(t, fmt.Sprintf("plugins:\n  echo: {command: %s}\n  notes: {command: %s, config: {dir: n}}\n  off: {command: %s, disabled: true}\n",
		bins["echo"], bins["notes"], bins["echo"]))
	wfPath := filepath.Join(root, ".awf", "workflows", "checks.yaml")
	src := `name: checks
states:
  initial: review
  review:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy:
      enable: true
      plugin_tools:
        - plugin: ecoh
          expose: [echo]
        - plugin: notes
          expose: [get, lst, get]
        - plugin: notes
          expose: [put, get]
        - plugin: off
          expose: [echo]
    on_success: done
    on_failure: done
  done: {type: terminal, status: success}
`
	if err := os.MkdirAll(filepath.Dir(wfPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wfPath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	h := New(Options{Root: root, File: file})
	defer h.Close()
	svc := validate.Service{Repo: repo{yamlrepo.Repository{Root: root}}, Checks: []validate.Check{validate.PluginCheck(h)}}
	rep, err := svc.Validate(context.Background(), "checks")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Diagnostics {
		got = append(got, fmt.Sprintf("%s@%d:%d", d.Code, d.Line, d.Column))
		if d.File != wfPath {
			t.Errorf("%v is not located in the workflow file", d)
		}
	}
	want := []string{
		fault.UserMCPProxyUnknownPlugin + "@11:19",    // ecoh
		fault.UserMCPProxyUnknownOperation + "@14:25", // lst
		fault.UserMCPProxyNameCollision + "@14:30",    // get, twice in one entry
		fault.UserMCPProxyNameCollision + "@16:25",    // get, notes listed twice
		fault.UserMCPProxyPluginDisabled + "@17:19",   // off
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("diagnostics = %v\nwant %v\n%v", got, want, rep.Diagnostics)
	}
	if rep.Valid() {
		t.Error("report is valid despite errors")
	}
	for _, d := range rep.Diagnostics {
		if d.Code == fault.UserMCPProxyUnknownPlugin && d.Hint != "did you mean 'echo'?" {
			t.Errorf("unknown plugin hint = %q", d.Hint)
		}
		if d.Code == fault.UserMCPProxyUnknownOperation && d.Hint != "did you mean 'list'?" {
			t.Errorf("unknown operation hint = %q", d.Hint)
		}
	}
	// Validation started notes to ask it; the processes stay for the run and go with Close.
	if st, _ := h.Status("notes"); st.State != StateRunning {
		t.Errorf("notes is %s after validation", st.State)
	}
	_ = h.Close()
	if pids := plugintest.Processes(t, bins["notes"]); len(pids) != 0 {
		t.Errorf("notes processes after Close: %v", pids)
	}
}
