package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests try the ways a step could make something it writes run outside the sandbox
// (awf's binaries, git's hooks and config, plugin commands), each under the write policy, and
// check the files afterwards as well as the exit status.

// gitIn runs git in dir, failing the test on an error.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// unchanged fails t when file's content is not want.
func unchanged(t *testing.T, file, want string) {
	t.Helper()
	if b, err := os.ReadFile(file); err != nil || string(b) != want {
		t.Errorf("%s changed: %q %v, want %q", file, b, err, want)
	}
}

// absent fails t when path exists.
func absent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s was created", path)
	}
}

// TestHelperRenamedAway: awf's binary inside the root (awf's own repository after make build).
// The step cannot rename its directory to plant another program under the old name, and were
// the path replaced anyway, the next helper is still the binary pinned at Probe.
func TestHelperRenamedAway(t *testing.T) {
	w := newWorld(t)
	self, _ := os.Executable()
	w.self = filepath.Join(w.root, "bin", "awf")
	if err := os.MkdirAll(filepath.Dir(w.self), 0o755); err != nil {
		t.Fatal(err)
	}
	copyBinary(t, self, w.self)
	w.extra = []string{w.self}
	if st := Probe(w.self); !st.Enforced {
		t.Fatalf("probe of the copied helper: %+v", st)
	}
	marker := filepath.Join(w.outside, "planted-ran")
	plant := "#!/bin/sh\ntouch " + marker + "\n"
	w.mustFail(t, PolicyWrite, "mv bin bin.old")
	w.mustFail(t, PolicyWrite, "mv bin/awf bin/awf.old")
	w.mustFail(t, PolicyWrite, "rm -rf bin")
	w.mustFail(t, PolicyWrite, "echo x > bin/awf")
	absent(t, filepath.Join(w.root, "bin.old"))
	// The path replaced behind awf's back: the next call still runs the pinned helper.
	if err := os.Rename(filepath.Join(w.root, "bin"), filepath.Join(w.root, "bin.moved")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(w.root, "bin"), 0o755)
	if err := os.WriteFile(w.self, []byte(plant), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := w.mustWork(t, PolicyWrite, "echo confined"); !strings.Contains(out, "confined") {
		t.Errorf("the pinned helper did not run the call: %s", out)
	}
	absent(t, marker)
	// The control: started by its path, the planted program does run.
	if out, err := exec.Command(w.self).CombinedOutput(); err != nil {
		t.Fatalf("control: %v %s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("control: the planted program did not run, so the test proves nothing")
	}
}

// TestProtectedPathsDoNotMoveWithTheirParent: renaming .git (or a plugin's directory) and
// putting an edited copy in its place is refused, so git's config and a plugin command stay.
func TestProtectedPathsDoNotMoveWithTheirParent(t *testing.T) {
	w := newWorld(t)
	plugin := filepath.Join(w.root, "tools", "plug", "run")
	os.MkdirAll(filepath.Dir(plugin), 0o755)
	os.WriteFile(plugin, []byte("#!/bin/sh\necho plugin\n"), 0o755)
	w.extra = []string{plugin}
	config, _ := os.ReadFile(filepath.Join(w.root, ".git", "config"))
	for _, s := range []string{
		"mv .git .git.old && cp -r .git.old .git && echo '[core] fsmonitor = touch /tmp/x' >> .git/config",
		"cp -r .git g && mv .git .git.old",
		"mv tools tools.old", "mv tools/plug tools/plug.old", "rm -rf tools",
		"mv .awf .awf.old",
	} {
		w.mustFail(t, PolicyWrite, s)
	}
	// .git itself stays writable: the step can still commit, and even empty it.
	w.mustWork(t, PolicyWrite, "git add a.txt && git -c user.name=t -c user.email=t@t commit -qm second && rm -rf g")
	w.mustFail(t, PolicyWrite, "rm -rf .git")
	unchanged(t, filepath.Join(w.root, ".git", "config"), string(config))
	unchanged(t, plugin, "#!/bin/sh\necho plugin\n")
	for _, p := range []string{".git.old", "tools.old", "tools/plug.old", ".awf.old"} {
		absent(t, filepath.Join(w.root, p))
	}
}

// TestMissingProtectedPathsCannotBeCreated: no .git/hooks, no .awf, and a root without .git.
func TestMissingProtectedPathsCannotBeCreated(t *testing.T) {
	w := newWorld(t)
	os.RemoveAll(filepath.Join(w.root, ".git", "hooks"))
	os.RemoveAll(filepath.Join(w.root, ".awf"))
	for _, s := range []string{
		"mkdir -p .git/hooks && echo 'touch /tmp/x' > .git/hooks/pre-commit",
		"mkdir -p .awf && echo 'plugins: {}' > .awf/plugins.yaml",
		"rm -f .awf; mkdir .awf",
	} {
		w.mustFail(t, PolicyWrite, s)
	}
	absent(t, filepath.Join(w.root, ".git", "hooks", "pre-commit"))
	absent(t, filepath.Join(w.root, ".awf", "plugins.yaml"))
	// A commondir would point git at a config the step wrote: its placeholder means "here".
	w.mustFail(t, PolicyWrite, "cp -r .git evil && echo '[core] fsmonitor = touch /tmp/x' >> evil/config; echo ../evil > .git/commondir")
	unchanged(t, filepath.Join(w.root, ".git", "commondir"), ".\n")
	gitIn(t, w.root, "status", "--short")
	gitIn(t, w.root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "after")
	// The placeholder is an empty file: awf's search for its project passes over it.
	if fi, err := os.Stat(filepath.Join(w.root, ".awf")); err != nil || fi.IsDir() || fi.Size() != 0 {
		t.Errorf("the .awf placeholder: %v %v", fi, err)
	}

	bare := newWorld(t)
	os.RemoveAll(filepath.Join(bare.root, ".git"))
	bare.mustFail(t, PolicyWrite, "mkdir -p .git && echo '[core] fsmonitor = touch /tmp/x' > .git/config")
	bare.mustFail(t, PolicyWrite, "git init -q .")
	bare.mustFail(t, PolicyWrite, "rmdir .git; mkdir -p .git/hooks && echo 'touch /tmp/x' > .git/hooks/pre-commit")
	for _, p := range []string{"config", "hooks", "HEAD"} {
		absent(t, filepath.Join(bare.root, ".git", p))
	}
	bare.mustWork(t, PolicyWrite, "echo fine > new.txt")
}

// TestEveryGitDirectoryIsProtected: submodules' git directories, a nested repository and the
// directory core.hooksPath names are protected like the root's .git.
func TestEveryGitDirectoryIsProtected(t *testing.T) {
	w := newWorld(t)
	mod := filepath.Join(w.root, ".git", "modules", "lib", "deep")
	os.MkdirAll(filepath.Join(mod, "hooks"), 0o755)
	os.WriteFile(filepath.Join(mod, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "config"), []byte("[core]\n"), 0o644)
	os.MkdirAll(filepath.Join(w.root, "lib", "deep"), 0o755)
	os.WriteFile(filepath.Join(w.root, "lib", "deep", ".git"), []byte("gitdir: ../../.git/modules/lib/deep\n"), 0o644)
	nested := filepath.Join(w.root, "vendor", "other")
	os.MkdirAll(nested, 0o755)
	gitIn(t, nested, "init", "-q")
	gitIn(t, w.root, "config", "core.hooksPath", ".husky/_")
	os.MkdirAll(filepath.Join(w.root, ".husky", "_"), 0o755)
	os.WriteFile(filepath.Join(w.root, ".husky", "pre-commit"), []byte("npm test\n"), 0o644)
	for _, s := range []string{
		"echo 'touch /tmp/x' > .git/modules/lib/deep/hooks/post-checkout",
		"echo '[core] fsmonitor = touch /tmp/x' >> .git/modules/lib/deep/config",
		"mv .git/modules/lib .git/modules/lib2",
		"echo 'gitdir: /tmp/evil' > lib/deep/.git", "rm lib/deep/.git",
		"echo 'touch /tmp/x' > vendor/other/.git/hooks/pre-commit",
		"echo '[core] fsmonitor = touch /tmp/x' >> vendor/other/.git/config",
		"mv vendor/other/.git vendor/other/.git2", "mv vendor vendor2",
		"echo 'touch /tmp/x' > .husky/_/pre-commit", "echo 'touch /tmp/x' > .husky/pre-commit",
		"mv .husky .husky2",
	} {
		w.mustFail(t, PolicyWrite, s)
	}
	absent(t, filepath.Join(mod, "hooks", "post-checkout"))
	absent(t, filepath.Join(nested, ".git", "hooks", "pre-commit"))
	unchanged(t, filepath.Join(mod, "config"), "[core]\n")
	unchanged(t, filepath.Join(w.root, ".husky", "pre-commit"), "npm test\n")
	unchanged(t, filepath.Join(w.root, "lib", "deep", ".git"), "gitdir: ../../.git/modules/lib/deep\n")
	// The worktrees themselves stay writable.
	w.mustWork(t, PolicyWrite, "echo ok > vendor/other/f && echo ok > lib/deep/f && echo ok > .git/modules/lib/deep/f")
}
