package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// hooksPaths are the directories core.hooksPath names for the worktree wt whose git directory
// is gitdir (common: its common directory), in any configuration git reads for it: the
// repository's config and config.worktree, the global and the system files, and the files they
// include (conditional includes too: protecting a directory git may not use costs nothing).
// Every value found is kept, not only the last: a later file could be skipped by a condition.
// A relative value is relative to the worktree, as git runs hooks there.
func hooksPaths(gitdir, common, wt string) []string {
	home, _ := os.UserHomeDir()
	files := []string{filepath.Join(common, "config"), filepath.Join(gitdir, "config.worktree")}
	files = append(files, globalConfigs(home)...)
	var raw []string
	for _, f := range files {
		raw = append(raw, configValues(f, home, 0)...)
	}
	var out []string
	for _, v := range raw {
		switch {
		case v == "":
			continue
		case strings.HasPrefix(v, "~/"):
			v = filepath.Join(home, v[2:])
		case !filepath.IsAbs(v):
			v = filepath.Join(wt, v)
		}
		out = append(out, filepath.Clean(v))
	}
	return out
}

// globalConfigs are the global and system configuration files git reads.
func globalConfigs(home string) []string {
	var out []string
	if f := os.Getenv("GIT_CONFIG_GLOBAL"); f != "" {
		out = append(out, f)
	} else {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		out = append(out, filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig"))
	}
	if f := os.Getenv("GIT_CONFIG_SYSTEM"); f != "" {
		return append(out, f)
	}
	return append(out, "/etc/gitconfig")
}

// maxIncludeDepth bounds include chains as git does (it refuses more than 10).
const maxIncludeDepth = 10

// configValues reads the core.hooksPath values of one git configuration file and of the files
// it includes. The parser knows what it needs only: section headers, key = value lines,
// comments and quotes; a file it cannot read adds nothing.
func configValues(file, home string, depth int) []string {
	b, err := os.ReadFile(file)
	if err != nil || depth > maxIncludeDepth {
		return nil
	}
	var out []string
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = ""
			if f := strings.Fields(line[1:end]); len(f) > 0 {
				section = strings.ToLower(f[0])
			}
			line = strings.TrimSpace(line[end+1:])
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), configValue(val)
		switch {
		case section == "core" && key == "hookspath":
			out = append(out, val)
		case (section == "include" || section == "includeif") && key == "path" && val != "":
			if strings.HasPrefix(val, "~/") {
				val = filepath.Join(home, val[2:])
			} else if !filepath.IsAbs(val) {
				val = filepath.Join(filepath.Dir(file), val)
			}
			out = append(out, configValues(val, home, depth+1)...)
		}
	}
	return out
}

// configValue is a value as git reads it: comments after an unquoted # or ; dropped, quotes
// removed, surrounding spaces trimmed.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
