package usecase

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// startFiles hashes the files a run of wf reads by name at its start: wf's own file (so that a
// record with files is told from one written before they were kept), run.StartFiles' and
// .awf/plugins.yaml when it shapes the run (operation or agent states). A file that cannot be
// read is left out: the run reports it when it reaches it.
func (u Run) startFiles(wf *workflow.Workflow, inputs map[string]any) map[string]string {
	if u.Runs == nil || wf == nil {
		return nil
	}
	var environ []string
	if u.Env != nil {
		environ = u.Env.Environ()
	}
	refs := append([][]string{{wf.File}}, run.StartFiles(wf, run.StartFilesOptions{Root: u.Root, Host: u.Host, Environ: environ, Inputs: inputs, Workflows: u.Workflows})...)
	if usesPlugins(wf) && u.Root != "" {
		refs = append(refs, []string{filepath.Join(u.Root, ".awf", "plugins.yaml")})
	}
	files := map[string]string{}
	for _, candidates := range refs {
		for _, c := range candidates {
			if src, err := u.Runs.ReadSource(c); err == nil {
				files[c] = runrecord.Hash(src)
				break
			}
		}
	}
	if len(files) == 0 {
		return nil
	}
	return files
}

// usesPlugins reports whether wf has states a plugin can serve: operation and agent states.
func usesPlugins(wf *workflow.Workflow) bool {
	for _, st := range wf.States {
		if st != nil && (st.Operation() != nil || st.Agent() != nil) {
			return true
		}
	}
	return false
}

// checkFiles compares the files the run read at its start with the same files now and with
// the files the workflow as validated now would read. A difference is refused, naming every
// file, unless force, which records the files as they are now.
func (u Run) checkFiles(rec *runrecord.Record, wf *workflow.Workflow, force bool) error {
	if rec.Files == nil {
		return nil // a record from before files were kept
	}
	now := u.startFiles(wf, rec.Inputs)
	var changed []string
	for _, f := range slices.Sorted(maps.Keys(rec.Files)) {
		switch h, ok := now[f]; {
		case !ok:
			changed = append(changed, f+" (no longer read, moved or deleted)")
		case h != rec.Files[f]:
			changed = append(changed, f+" (edited)")
		}
	}
	for _, f := range slices.Sorted(maps.Keys(now)) {
		if _, ok := rec.Files[f]; !ok {
			changed = append(changed, f+" (read now, not by the run)")
		}
	}
	if len(changed) == 0 {
		return nil
	}
	if !force {
		return fault.New(fault.UserRunWorkflowChanged, "files run %s read changed since it started: %s", rec.ID, strings.Join(changed, "; ")).
			WithHint("resuming would run different steps than the ones recorded; use --force to resume with the files as they are now")
	}
	rec.Files = now
	return nil
}
