package sandbox

import "path/filepath"

// ProtectedPaths lists what no Bash call may write, whatever its policy: .awf/, .git/hooks/
// and .git/config in root and in each directory above it (a writable path such as ../cache
// must not open the project's own .awf/), plus extra (plugin commands, private files of the
// run). Paths that do not exist are kept: the helper skips them.
func ProtectedPaths(root string, extra []string) []string {
	var out []string
	for d := filepath.Clean(root); ; d = filepath.Dir(d) {
		out = append(out, filepath.Join(d, ".awf"), filepath.Join(d, ".git", "hooks"), filepath.Join(d, ".git", "config"))
		if filepath.Dir(d) == d {
			break
		}
	}
	return append(out, extra...)
}
