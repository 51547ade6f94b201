package run

import (
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// templatedRootOutside refuses an agent step whose root came from a template and resolved
// outside the project root (docs/decisions/0012-kernel-sandbox.md): `dir: "{{.inputs.sub}}"` with sub=../../etc would hand
// the agent's file tools and sandboxed Bash a root the workflow author never chose. A literal
// dir is the author's choice and stays allowed; so does a run without a project root. The
// check is lexical (the application layer does not touch the filesystem); the file tools then
// confine themselves to the resolved root with os.Root.
func templatedRootOutside(st *workflow.State, raw, resolved, projectRoot string) error {
	if projectRoot == "" || !strings.Contains(raw, "{{") {
		return nil
	}
	root := filepath.Clean(projectRoot)
	dir := filepath.Clean(resolved)
	if rel, err := filepath.Rel(root, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel) {
		return nil
	}
	return fault.New(fault.UserAgentRootOutside, "step %q: dir %q rendered to %s, outside the project root %s", st.Name, raw, resolved, root).
		WithHint("a templated dir must stay inside the project; write a literal dir to use another directory")
}
