package builtins

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWriteAndEditRefuseWhatGitRuns: Write and Edit refuse the same set the sandbox keeps Bash
// from changing, not only the root's .git/hooks and .git/config: a submodule's hooks and config,
// commondir, a gitfile planted in a subdirectory, a nested repository's hooks and the directory
// core.hooksPath names (husky's .husky/). Each of them is something git runs or reads outside any
// sandbox on the user's next git command. A file beside them stays writable.
func TestWriteAndEditRefuseWhatGitRuns(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	root := t.TempDir()
	gitIn := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitIn(root, "init", "-q")
	gitIn(root, "config", "core.hooksPath", ".husky")
	gitIn(root, "init", "-q", "--bare", ".git/modules/lib") // a submodule's repository
	for _, d := range []string{".husky", "nested", "plain"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(filepath.Join(root, "nested"), "init", "-q")
	if err := os.WriteFile(filepath.Join(root, ".husky/pre-commit"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	p, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	for _, target := range []string{
		".git/modules/lib/hooks/post-checkout",
		".git/modules/lib/config",
		".git/commondir",
		"plain/.git",
		"nested/.git/hooks/pre-commit",
		"nested/.git/config",
		".husky/pre-push",
		".husky/pre-commit",
	} {
		before, _ := os.ReadFile(filepath.Join(root, target))
		wantErr(t, call(t, p, "Write", map[string]any{"file_path": target, "content": "touch /tmp/owned\n"}), "is protected")
		if _, err := os.Stat(filepath.Join(root, target)); err == nil {
			if after, _ := os.ReadFile(filepath.Join(root, target)); string(after) != string(before) {
				t.Errorf("Write changed %s", target)
			}
		} else if len(before) == 0 && !os.IsNotExist(err) {
			t.Errorf("%s: %v", target, err)
		} else if err == nil {
			t.Errorf("Write created %s", target)
		}
	}
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": ".husky/pre-commit", "old_string": "#!/bin/sh", "new_string": "#!/bin/sh\ntouch owned"}), "is protected")
	wantErr(t, call(t, p, "Edit", map[string]any{"file_path": ".git/modules/lib/config", "old_string": "[core]", "new_string": "[core]\n\tfsmonitor = touch owned", "replace_all": true}), "is protected")
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "plain/notes.txt", "content": "fine"}), "Created")
}
