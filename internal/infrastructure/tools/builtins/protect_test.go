package builtins

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteEditRefuseProtectedPaths(t *testing.T) {
	root := t.TempDir()
	plugin := filepath.Join(root, "tools", "myplugin")
	p, err := New(Options{Root: root, Protected: []string{plugin}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	root = p.Root()
	for _, f := range []string{".awf/runs/r1/activity.jsonl", ".git/config", ".git/hooks/pre-commit", "sub/.git/config", "tools/myplugin"} {
		mustWrite(t, filepath.Join(root, f), "original SECRET\n")
	}
	// A repository has a HEAD; a .git without one is protected whole (it could become one).
	mustWrite(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	os.Symlink(".awf", filepath.Join(root, "awf-link"))
	os.Symlink(".git", filepath.Join(root, "git-link"))
	for _, path := range []string{
		".awf/runs/r1/activity.jsonl", ".awf/new.yaml", ".git/config", ".git/hooks/pre-commit",
		".git/hooks/post-checkout", "sub/.git/config", "tools/myplugin", "awf-link/runs/r1/activity.jsonl",
		"git-link/config", filepath.Join(root, ".git", "hooks", "x"),
	} {
		t.Run(path, func(t *testing.T) {
			wantErr(t, call(t, p, "Write", map[string]any{"file_path": path, "content": "pwned"}), "is protected", "USER.BUILTINS.PROTECTED_PATH")
			if exists(filepath.Join(root, path)) {
				wantErr(t, call(t, p, "Edit", map[string]any{"file_path": path, "old_string": "SECRET", "new_string": "x"}), "is protected")
			}
		})
	}
	for _, f := range []string{".awf/runs/r1/activity.jsonl", ".git/config", ".git/hooks/pre-commit", "sub/.git/config", "tools/myplugin"} {
		if b, _ := os.ReadFile(filepath.Join(root, f)); string(b) != "original SECRET\n" {
			t.Errorf("%s changed to %q", f, b)
		}
	}
	for _, f := range []string{".awf/new.yaml", ".git/hooks/post-checkout", ".git/hooks/x"} {
		if exists(filepath.Join(root, f)) {
			t.Errorf("%s was created", f)
		}
	}
	// Reading them stays allowed; so does writing beside them.
	wantOK(t, call(t, p, "Read", map[string]any{"file_path": ".git/config"}), "original")
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": ".gitignore", "content": "x"}))
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "awf.md", "content": "x"}))
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": ".git/description", "content": "x"}))
	wantOK(t, call(t, p, "Write", map[string]any{"file_path": "tools/other", "content": "x"}))
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
