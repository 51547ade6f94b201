package yamlrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Repository is the WorkflowRepository the application uses.
var _ ports.WorkflowRepository = Repository{}

// WorkflowsDir is where a project keeps its workflows, relative to its root.
const WorkflowsDir = ".awf/workflows"

var extensions = []string{".yaml", ".yml"}

// Repository finds the workflows of a project: by name in <Root>/.awf/workflows, or by path.
type Repository struct {
	// Root is the project directory; "" means the current directory.
	Root string
}

// Dir is the directory holding the project's named workflows.
func (r Repository) Dir() string { return filepath.Join(r.Root, filepath.FromSlash(WorkflowsDir)) }

// Resolve turns what a user typed into the path of a workflow file. Something that looks like a
// path (it holds a separator or ends in .yaml/.yml) and exists is returned as given; a relative
// path is also tried under Root, and a bare file name under the workflows directory. Anything
// else is a name: <Dir>/<name>.yaml, then .yml. When nothing matches, the error
// (USER.WORKFLOW.NOT_FOUND) lists the available names and suggests the closest.
func (r Repository) Resolve(nameOrPath string) (string, error) {
	if strings.TrimSpace(nameOrPath) == "" {
		return "", r.notFound("", "no workflow given")
	}
	if looksLikePath(nameOrPath) {
		candidates := []string{nameOrPath}
		if !filepath.IsAbs(nameOrPath) && r.Root != "" {
			candidates = append(candidates, filepath.Join(r.Root, nameOrPath))
		}
		if !strings.ContainsAny(nameOrPath, `/`+string(filepath.Separator)) {
			candidates = append(candidates, filepath.Join(r.Dir(), nameOrPath))
		}
		for _, c := range candidates {
			if exists(c) {
				return c, nil
			}
		}
		base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(nameOrPath), ".yaml"), ".yml")
		return "", r.notFound(base, "workflow file "+quote(nameOrPath)+" does not exist")
	}
	for _, ext := range extensions {
		p := filepath.Join(r.Dir(), nameOrPath+ext)
		if exists(p) {
			return p, nil
		}
	}
	return "", r.notFound(nameOrPath, "workflow "+quote(nameOrPath)+" not found in "+r.Dir())
}

// Load resolves nameOrPath and loads the file it names (see Load).
func (r Repository) Load(nameOrPath string) (*workflow.Workflow, fault.Diagnostics, error) {
	path, err := r.Resolve(nameOrPath)
	if err != nil {
		return nil, nil, err
	}
	return Load(path)
}

// List returns the names of the workflows in the workflows directory, sorted. A project without
// the directory has no workflows, which is not an error.
func (r Repository) List() ([]string, error) {
	entries, err := os.ReadDir(r.Dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Wrap(err, fault.UserWorkflowUnreadable, "cannot list workflows in %s", r.Dir()).
			WithHint("check that the directory is readable")
	}
	seen := map[string]bool{}
	var names []string
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if strings.HasPrefix(n, ".") || (ext != ".yaml" && ext != ".yml") {
			continue
		}
		if info, err := os.Stat(filepath.Join(r.Dir(), n)); err != nil || !info.Mode().IsRegular() {
			continue // a directory named x.yaml, or a broken symlink
		}
		name := strings.TrimSuffix(n, ext)
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// notFound builds the NOT_FOUND error with the names a user could have meant.
func (r Repository) notFound(name, msg string) error {
	names, _ := r.List()
	var hint string
	switch {
	case len(names) == 0:
		hint = "there are no workflows in " + r.Dir() + "; create " + filepath.Join(r.Dir(), nonEmpty(name, "<name>")+".yaml") + " or give the path of a workflow file"
	default:
		hint = "available workflows: " + strings.Join(names, ", ")
		if s := suggest.Closest(name, names); s != "" {
			hint = "did you mean '" + s + "'? " + hint
		}
	}
	return fault.New(fault.UserWorkflowNotFound, "%s", msg).WithHint("%s", hint)
}

func looksLikePath(s string) bool {
	if strings.ContainsAny(s, `/`+string(filepath.Separator)) {
		return true
	}
	for _, ext := range extensions {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func quote(s string) string { return `"` + s + `"` }

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
