package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filesWorkflow reads a script_file, calls helper, and fails at gate until the file go exists
// in dir, so that the run stops resumable after reading every file it names.
const filesWorkflow = `name: files
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: first
  first:
    type: command
    script_file: first.sh
    on_success: sub
  sub:
    type: call_workflow
    workflow: helper
    on_success: gate
  gate:
    type: command
    command: test -e {{.inputs.dir}}/go
    on_success: done
  done:
    type: terminal
`

const helperWorkflow = `name: helper
states:
  initial: hi
  hi:
    type: command
    command: echo helper
    on_success: end
  end:
    type: terminal
`

// filesRun runs the files workflow until it fails at gate, and returns the project, the side
// directory, the environment and the run id.
func filesRun(t *testing.T) (dir, side string, env []string, id string) {
	t.Helper()
	dir = project(t, map[string]string{"files.yaml": filesWorkflow, "helper.yaml": helperWorkflow, "first.sh": "echo first\n"})
	side = t.TempDir()
	env = []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	if r := awf(t, dir, env, "run", "files", "-i", "dir="+side); r.code == 0 {
		t.Fatalf("the run passed its gate:\n%s%s", r.stdout, r.stderr)
	}
	entries, err := os.ReadDir(filepath.Join(dir, ".awf", "runs"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("run directories %v %v", entries, err)
	}
	return dir, side, env, entries[0].Name()
}

// TestResumeNoticesEditedFiles: an edited script_file or called workflow is refused on resume,
// naming the file; put back, the run resumes.
func TestResumeNoticesEditedFiles(t *testing.T) {
	dir, side, env, id := filesRun(t)
	wfDir := filepath.Join(dir, ".awf", "workflows")
	for _, edit := range []struct{ file, body, restore string }{
		{"first.sh", "echo first; touch " + filepath.Join(side, "edited") + "\n", "echo first\n"},
		{"helper.yaml", strings.Replace(helperWorkflow, "echo helper", "echo other", 1), helperWorkflow},
	} {
		path := filepath.Join(wfDir, edit.file)
		must(t, os.WriteFile(path, []byte(edit.body), 0o644))
		r := awf(t, dir, env, "resume", id)
		if r.code == 0 || !strings.Contains(r.stderr, "USER.RUN.WORKFLOW_CHANGED") || !strings.Contains(r.stderr, path+" (edited)") || !strings.Contains(r.stderr, "--force") {
			t.Fatalf("resume after editing %s: exit %d\n%s", edit.file, r.code, r.stderr)
		}
		must(t, os.WriteFile(path, []byte(edit.restore), 0o644))
	}
	must(t, os.Remove(filepath.Join(wfDir, "first.sh")))
	if r := awf(t, dir, env, "resume", id); r.code == 0 || !strings.Contains(r.stderr, "first.sh (no longer read, moved or deleted)") {
		t.Fatalf("resume after deleting the script: exit %d\n%s", r.code, r.stderr)
	}
	must(t, os.WriteFile(filepath.Join(wfDir, "first.sh"), []byte("echo first\n"), 0o644))
	touch(t, filepath.Join(side, "go"))
	if r := awf(t, dir, env, "resume", id); r.code != 0 {
		t.Fatalf("resume with the files as they were: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestResumeForcedRecordsFiles: --force resumes with the edited file and records it, so the
// next resume does not refuse again.
func TestResumeForcedRecordsFiles(t *testing.T) {
	dir, _, env, id := filesRun(t)
	script := filepath.Join(dir, ".awf", "workflows", "first.sh")
	must(t, os.WriteFile(script, []byte("echo edited\n"), 0o644))
	if r := awf(t, dir, env, "resume", id, "--force"); r.code == 0 || strings.Contains(r.stderr, "WORKFLOW_CHANGED") {
		t.Fatalf("forced resume: exit %d (it should fail at gate again, not be refused)\n%s", r.code, r.stderr)
	}
	if r := awf(t, dir, env, "resume", id); strings.Contains(r.stderr, "WORKFLOW_CHANGED") {
		t.Fatalf("the forced resume did not record the edited file:\n%s", r.stderr)
	}
}

// TestRunFilesAreNotWrittenThroughLinks: run files planted as links to a marker outside the
// run directory are never written through; the resume says what to do.
func TestRunFilesAreNotWrittenThroughLinks(t *testing.T) {
	dir, side, env, id := filesRun(t)
	runDir := filepath.Join(dir, ".awf", "runs", id)
	marker := filepath.Join(t.TempDir(), "marker")
	must(t, os.WriteFile(marker, []byte("untouched"), 0o600))
	for _, name := range []string{"run.log", "activity.jsonl", "resume.lock", "report.html"} {
		_ = os.Remove(filepath.Join(runDir, name))
		must(t, os.Symlink(marker, filepath.Join(runDir, name)))
	}
	touch(t, filepath.Join(side, "go"))
	r := awf(t, dir, env, "resume", id)
	if b, _ := os.ReadFile(marker); string(b) != "untouched" {
		t.Fatalf("the marker outside the run directory was written: %q", b)
	}
	if r.code == 0 || !strings.Contains(r.stderr, "symbolic link") || !strings.Contains(r.stderr, "remove the link") {
		t.Fatalf("resume through a planted run.log: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, env, "report", id); r.code != 0 {
		t.Fatalf("report beside a planted report.html link: exit %d %s", r.code, r.stderr)
	}
	// A planted state.json is not read (it could be any file) and is named.
	state := filepath.Join(runDir, "state.json")
	must(t, os.Remove(state))
	must(t, os.Symlink(marker, state))
	r = awf(t, dir, env, "resume", id)
	if r.code == 0 || !strings.Contains(r.stderr, "state.json is a symbolic link") || !strings.Contains(r.stderr, "remove the link") {
		t.Fatalf("resume through a planted state.json: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(marker); string(b) != "untouched" {
		t.Fatalf("the marker outside the run directory was written: %q", b)
	}
}
