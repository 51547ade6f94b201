package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// ProtectedPaths lists what no Bash call may write, whatever its policy, each with everything
// beneath it. A path ending in "/" is covered, when missing, by an empty directory, others by
// an empty file. It holds, in root and in each directory above it (a writable path such as ../cache
// must not open the project's own), .awf/ and the repository there (see repository); the
// repositories nested under root; and extra (plugin commands, awf's binaries, private files of
// the run). Paths that do not exist are kept: the helper covers those inside a
// writable path with read-only placeholders, so they cannot be created either.
func ProtectedPaths(root string, extra []string) []string {
	root = filepath.Clean(root)
	s := &protectedSet{seen: map[string]bool{}}
	for d := root; ; d = filepath.Dir(d) {
		// A missing .awf is covered by an empty file, not a directory: awf takes the nearest
		// directory holding a .awf directory for the project, and a placeholder must not move it.
		s.add(filepath.Join(d, ".awf"), false)
		s.repository(d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, wt := range nestedRepositories(root) {
		s.repository(wt)
	}
	for _, x := range extra {
		s.add(filepath.Clean(x), false)
	}
	return s.out
}

// protectedSet collects protected paths once each, in the order found.
type protectedSet struct {
	out  []string
	seen map[string]bool
}

func (s *protectedSet) add(path string, dir bool) {
	if s.seen[path] {
		return
	}
	s.seen[path] = true
	if dir {
		path += "/"
	}
	s.out = append(s.out, path)
}

// repository adds what git runs or obeys for the worktree wt: a git directory's hooks/,
// config, config.worktree and modules, or a .git file itself and the git directory it names,
// then the core.hooksPath directories its configuration names. Where wt/.git is missing, or a
// directory that is no repository (no HEAD: an earlier call's placeholder), the whole of it is
// protected, so no repository can be planted there.
func (s *protectedSet) repository(wt string) {
	dotgit := filepath.Join(wt, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil || fi.IsDir() && !exists(filepath.Join(dotgit, "HEAD")) {
		s.add(dotgit, true)
		return
	}
	gitdir := dotgit
	if !fi.IsDir() {
		s.add(dotgit, false)
		if gitdir = readGitfile(dotgit); gitdir == "" {
			return
		}
	}
	s.gitdir(gitdir)
	common := commonDir(gitdir)
	if common != gitdir {
		s.gitdir(common)
	}
	for _, hp := range hooksPaths(gitdir, common, wt) {
		s.add(hp, true)
		// husky's hooksPath is .husky/_, whose scripts run the user's hooks one level up.
		if filepath.Base(hp) == "_" {
			s.add(filepath.Dir(hp), true)
		}
	}
}

// gitdir adds a git directory's hooks/, config, commondir (which would point git at another
// directory's config and hooks) and config.worktree, and those of every module under its
// modules/ (submodules of submodules included).
func (s *protectedSet) gitdir(gd string) {
	s.add(filepath.Join(gd, "hooks"), true)
	s.add(filepath.Join(gd, "config"), false)
	s.add(filepath.Join(gd, "commondir"), false)
	if exists(filepath.Join(gd, "config.worktree")) {
		s.add(filepath.Join(gd, "config.worktree"), false)
	}
	for _, m := range moduleDirs(filepath.Join(gd, "modules")) {
		s.gitdir(m)
	}
}

// moduleDirs are the git directories under a modules/ directory: a module's name may hold
// slashes, so any directory holding a HEAD file is one, and the search goes on below others.
func moduleDirs(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if exists(filepath.Join(sub, "HEAD")) {
			out = append(out, sub)
		} else {
			out = append(out, moduleDirs(sub)...)
		}
	}
	return out
}

// readGitfile is the git directory a .git file names ("gitdir: <path>", relative to the
// file's directory), "" when it names none.
func readGitfile(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if gd = strings.TrimSpace(gd); !ok || gd == "" {
		return ""
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(file), gd)
	}
	return filepath.Clean(gd)
}

// commonDir is the directory a linked worktree's git directory shares with the main one
// (its commondir file), else gitdir itself.
func commonDir(gitdir string) string {
	b, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return gitdir
	}
	cd := strings.TrimSpace(string(b))
	if cd == "" {
		return gitdir
	}
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitdir, cd)
	}
	return filepath.Clean(cd)
}

// nestedRepositories are the directories strictly under root holding a .git (directory or
// file), found by a walk that does not follow symbolic links nor enter .git directories.
func nestedRepositories(root string) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := readDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			switch {
			case e.Name() == ".git":
				if dir != root {
					out = append(out, dir)
				}
			case e.IsDir():
				walk(filepath.Join(dir, e.Name()))
			}
		}
	}
	walk(root)
	return out
}

// readDir is os.ReadDir without the sort, which the walk does not need.
func readDir(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// ProtectedPathsLater computes ProtectedPaths in the background and returns the function that
// waits for it: the walk for nested repositories takes milliseconds in a large tree, which a
// Bash tool can spend while the agent starts instead of before it lists its tools.
func ProtectedPathsLater(root string, extra []string) func() []string {
	var out []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		out = ProtectedPaths(root, extra)
	}()
	return func() []string {
		<-done
		return out
	}
}

// exists says whether path exists, a dangling symbolic link included.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Protects says whether path (absolute, clean, its symbolic links resolved) is one of the
// protected paths, as ProtectedPaths lists them, or lies inside a protected directory: what
// Write and Edit must refuse too, so that no tool can write what Bash cannot.
func Protects(protected []string, path string) bool {
	for _, p := range protected {
		p = strings.TrimSuffix(p, "/")
		if path == p || strings.HasPrefix(path, p+"/") || p == "" {
			return true
		}
	}
	return false
}
