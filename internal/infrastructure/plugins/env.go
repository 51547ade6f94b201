package plugins

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// baseEnvNames are the variables of awf's environment a plugin inherits (issue 12): what a
// program needs to find tools and format text, never awf's credentials or the model keys.
// Anything else a plugin needs is declared under its `env:` in plugins.yaml.
var baseEnvNames = []string{"PATH", "HOME", "LANG", "TERM", "TZ", "TMPDIR", "USER"}

// pluginEnv is a plugin's environment: the base variables and LC_* from environ, then the
// plugins.yaml entries with ${VAR} and $VAR expanded from environ. A reference to a variable
// that is not set is USER.PLUGINS.ENV_UNSET: a plugin silently given an empty token fails later
// and less clearly.
func pluginEnv(spec Spec, file string, environ []string) ([]string, error) {
	vars := make(map[string]string, len(environ))
	out := make([]string, 0, len(baseEnvNames)+len(spec.Env))
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		vars[name] = val
		if strings.HasPrefix(name, "LC_") {
			out = append(out, kv)
		}
	}
	for _, name := range baseEnvNames {
		if v, ok := vars[name]; ok {
			out = append(out, name+"="+v)
		}
	}
	for _, kv := range spec.Env {
		name, val, _ := strings.Cut(kv, "=")
		var missing []string
		val = os.Expand(val, func(ref string) string {
			v, ok := vars[ref]
			if !ok {
				missing = append(missing, ref)
			}
			return v
		})
		if len(missing) > 0 {
			return nil, fault.New(fault.UserPluginsEnvUnset, "plugin %q: env %s references $%s, which is not set in awf's environment", spec.Name, name, missing[0]).
				WithHint("export %s before running awf, or remove it from the plugin's env: in %s", missing[0], file)
		}
		out = append(out, name+"="+val)
	}
	return out, nil
}

// Commands lists the resolved executables of the plugins declared in file (a plugins.yaml):
// the paths no tool may change. Plugins whose command cannot be resolved are left out; a file
// that cannot be read yields none.
func Commands(file string) []string {
	m, err := LoadManifest(file)
	if err != nil || m == nil {
		return nil
	}
	root := filepath.Dir(file)
	if filepath.Base(root) == ".awf" {
		root = filepath.Dir(root)
	}
	var out []string
	for _, name := range m.Names() {
		spec, _ := m.Lookup(name)
		if path, err := resolveCommand(root, file, spec); err == nil {
			out = append(out, path)
		}
	}
	return out
}
