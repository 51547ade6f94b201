package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A repository's set: its hooks and config, its modules', a nested repository's, a worktree
// pointer, the hooksPath of an included file (husky's parent too), and what a placeholder or
// missing .git gets (the whole directory).
func TestProtectedPathsOfRepositories(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_GLOBAL", "/nonexistent")
	t.Setenv("GIT_CONFIG_SYSTEM", "/nonexistent")
	write(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(root, ".git", "config"), "[core]\n\tbare = false ; comment\n[include]\n\tpath = extra.conf\n")
	write(t, filepath.Join(root, ".git", "extra.conf"), "[Core]\n\thooksPath = \".husky/_\" # husky\n")
	write(t, filepath.Join(root, ".git", "modules", "a", "b", "HEAD"), "x\n")
	write(t, filepath.Join(root, "a", "b", ".git"), "gitdir: ../../.git/modules/a/b\n")
	write(t, filepath.Join(root, "vendor", "x", ".git", "HEAD"), "x\n")
	os.MkdirAll(filepath.Join(root, "empty", ".git"), 0o755)
	got := ProtectedPaths(root, []string{root + "/bin/awf"})
	for _, want := range []string{
		root + "/.awf", root + "/.git/hooks/", root + "/.git/config", root + "/.git/modules/a/b/hooks/", root + "/.git/modules/a/b/config",
		root + "/.husky/_/", root + "/.husky/", root + "/a/b/.git", root + "/vendor/x/.git/hooks/", root + "/vendor/x/.git/config",
		root + "/empty/.git/", filepath.Dir(root) + "/.git/", root + "/bin/awf",
	} {
		if !Protects(got, want) || !contains(got, want) {
			t.Errorf("%s is not in %q", want, got)
		}
	}
	if contains(got, root+"/.git/") || Protects(got, root+"/.git/HEAD") || Protects(got, root+"/vendor/x/f") {
		t.Errorf("a repository's own files are protected: %q", got)
	}
}

func TestProtectedPathsLater(t *testing.T) {
	root := t.TempDir()
	wait := ProtectedPathsLater(root, []string{"/x"})
	if got, want := wait(), ProtectedPaths(root, []string{"/x"}); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(wait(), want) {
		t.Fatalf("later %q, now %q", got, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestConfigValue(t *testing.T) {
	for in, want := range map[string]string{` .husky `: ".husky", `"a b" ; c`: "a b", `"x;y"`: "x;y", `a\"b`: `a"b`, `# all comment`: ""} {
		if got := configValue(in); got != want {
			t.Errorf("configValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIncludeDepthIsBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "loop"), "[include]\n\tpath = loop\n[core]\n\thooksPath = h\n")
	if got := configValues(filepath.Join(dir, "loop"), dir, 0); len(got) != maxIncludeDepth+1 || !reflect.DeepEqual(got[0], "h") {
		t.Fatalf("an include loop gave %q", got)
	}
}
