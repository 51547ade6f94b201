package sandbox

import (
	"path/filepath"
	"strings"
)

// TempEnv sets the call's private temp directory as TMPDIR and as the cache directories of
// common toolchains, which would otherwise write under $HOME (not writable in the sandbox).
func TempEnv(env []string, tmp string) []string {
	set := map[string]string{
		"TMPDIR": tmp, "TMP": tmp, "TEMP": tmp,
		"GOCACHE": filepath.Join(tmp, "go-build"), "GOTMPDIR": tmp,
		"XDG_CACHE_HOME":      filepath.Join(tmp, "cache"),
		"npm_config_cache":    filepath.Join(tmp, "npm"),
		"PIP_CACHE_DIR":       filepath.Join(tmp, "pip"),
		"PYTHONPYCACHEPREFIX": filepath.Join(tmp, "pycache"),
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, name := range []string{"TMPDIR", "TMP", "TEMP", "GOCACHE", "GOTMPDIR", "XDG_CACHE_HOME", "npm_config_cache", "PIP_CACHE_DIR", "PYTHONPYCACHEPREFIX"} {
		out = append(out, name+"="+set[name])
	}
	return out
}

// Status says whether the sandbox can be enforced here, and why not.
type Status struct {
	Enforced bool   // every part applied in a trial run
	ABI      int    // the kernel's Landlock ABI, 0 without Landlock
	Reason   string // why it cannot be enforced: the kernel feature missing
}
