package yamlrepo

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

var _ ports.WorkflowSource = Repository{}

// Callee implements ports.WorkflowSource. A name (no separator, no .yaml/.yml) is looked up as
// <name>.yaml or .yml beside the calling file, then in the project's workflows directory, as
// `awf run <name>` finds it; the reference awf looks in the workflows directory only, and a
// workflow kept elsewhere (examples/) calling its neighbour would not run there. A path is taken
// relative to the calling file, then to the project root.
func (r Repository) Callee(from, name string) (*workflow.Workflow, fault.Diagnostics, error) {
	for _, c := range r.calleeCandidates(from, name) {
		if info, err := os.Stat(c); err == nil && info.Mode().IsRegular() {
			return Load(c)
		}
	}
	return nil, nil, r.calleeNotFound(from, name)
}

func (r Repository) calleeCandidates(from, name string) []string {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	var dirs []string
	if from != "" {
		dirs = append(dirs, filepath.Dir(from))
	}
	if looksLikePath(name) {
		if filepath.IsAbs(name) {
			return []string{name}
		}
		dirs = append(dirs, nonEmpty(r.Root, "."))
		out := make([]string, 0, len(dirs))
		for _, d := range dirs {
			out = append(out, filepath.Join(d, name))
		}
		return out
	}
	dirs = append(dirs, r.Dir())
	var out []string
	for _, d := range dirs {
		for _, ext := range extensions {
			out = append(out, filepath.Join(d, name+ext))
		}
	}
	return out
}

// calleeNotFound says which workflows a call could have meant: the project's and the calling
// file's neighbours.
func (r Repository) calleeNotFound(from, name string) error {
	names, _ := r.List()
	if from != "" && filepath.Clean(filepath.Dir(from)) != filepath.Clean(r.Dir()) {
		names = append(names, Repository{}.siblings(filepath.Dir(from))...)
	}
	names = unique(names)
	where := r.Dir()
	if from != "" {
		where = filepath.Dir(from) + " or " + where
	}
	hint := "there are no workflows in " + where
	if len(names) > 0 {
		hint = "available workflows: " + strings.Join(names, ", ")
		if s := suggest.Closest(name, names); s != "" {
			hint = "did you mean '" + s + "'? " + hint
		}
	}
	return fault.New(fault.UserWorkflowNotFound, "workflow %q not found in %s", name, where).WithHint("%s", hint)
}

// siblings lists the workflow names of the files in dir.
func (Repository) siblings(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if ext := filepath.Ext(n); !strings.HasPrefix(n, ".") && (ext == ".yaml" || ext == ".yml") && e.Type().IsRegular() {
			out = append(out, strings.TrimSuffix(n, ext))
		}
	}
	return out
}

func unique(names []string) []string {
	sort.Strings(names)
	out := names[:0]
	for i, n := range names {
		if i == 0 || n != names[i-1] {
			out = append(out, n)
		}
	}
	return out
}
