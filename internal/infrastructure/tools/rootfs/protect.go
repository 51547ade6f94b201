package rootfs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// ProtectedError refuses a Write or Edit aimed at one of awf's own files: the run records under
// .awf/ (an agent could forge its audit trail), .git/hooks/ and .git/config (code that runs on
// the user's next git command), a plugin binary, or a private file awf wrote for the CLI.
type ProtectedError struct{ path, why string }

// Error names the path, why it is protected, and the error code a caller can match.
func (e *ProtectedError) Error() string {
	return fmt.Sprintf("%s is protected (%s); awf does not let tools change it [%s]", e.path, e.why, fault.UserBuiltinsProtectedPath)
}

// ProtectedWhy says why real (an absolute, resolved path inside root) is protected, or "". Any
// .awf directory and any .git/hooks or .git/config on the path is protected by name, so a
// nested project or repository is covered too, and so is a root that itself lies under .awf/
// (a templated dir pointing into .awf/runs must not let an agent forge its records); extra
// lists further absolute paths (files or whole directories, a trailing slash allowed): the
// caller adds what git runs or reads elsewhere (submodules, commondir, core.hooksPath).
func ProtectedWhy(real string, extra []string) string {
	for _, x := range extra {
		x = strings.TrimSuffix(x, "/")
		if real == x || strings.HasPrefix(real, x+"/") {
			return "protected by awf: a git hooks directory, a plugin command or a private file of the run"
		}
	}
	parts := strings.Split(filepath.ToSlash(real), "/")
	for i, part := range parts {
		switch {
		case part == ".awf":
			return "awf's workflows, plugins and run records live under .awf/"
		case part == ".git" && i+1 < len(parts) && parts[i+1] == "hooks":
			return "git runs the scripts under .git/hooks/"
		case part == ".git" && i+1 < len(parts) && parts[i+1] == "config":
			return ".git/config can name commands git runs"
		case part == ".git" && i+1 < len(parts) && parts[i+1] == "commondir":
			return ".git/commondir points git at another repository's config"
		case part == ".git" && i+1 == len(parts):
			return "a .git file or directory makes a repository whose config git reads"
		}
	}
	return ""
}

// ResolveAll makes each path absolute and clean with its symlinks resolved where it exists, so
// it compares with the resolved paths the tools use.
func ResolveAll(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			out = append(out, abs)
		}
	}
	return out
}
