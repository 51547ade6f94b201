package plugins

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// baseEnvNames are the variables of awf's environment a plugin inherits (docs/decisions/0012-kernel-sandbox.md): what a
// program needs to find tools and format text, never awf's credentials or the model keys.
// Anything else a plugin needs is declared under its `env:` in plugins.yaml.
var baseEnvNames = []string{"PATH", "HOME", "LANG", "TERM", "TZ", "TMPDIR", "USER"}

// pluginEnv is a plugin's environment: the base variables and LC_* from environ, then the
// plugins.yaml entries with ${VAR} and $VAR expanded from environ. A reference to a variable
// that is not set is USER.PLUGINS.ENV_UNSET: a plugin silently given an empty token fails later
// and less clearly.
func pluginEnv(spec Spec, file string, environ []string) ([]string, error) {
	vars := envMap(environ)
	out := make([]string, 0, len(baseEnvNames)+len(spec.Env))
	for _, kv := range environ {
		if strings.HasPrefix(kv, "LC_") {
			out = append(out, kv)
		}
	}
	for _, name := range baseEnvNames {
		if v, ok := vars[name]; ok {
			out = append(out, name+"="+v)
		}
	}
	env, err := expandWith(spec, "env", "env:", spec.Env, vars, file)
	if err != nil {
		return nil, err
	}
	return append(out, env...), nil
}

// expandPairs expands ${VAR} in the values of Name=Value pairs from environ; an unset variable
// is USER.PLUGINS.ENV_UNSET, naming the entry.
func expandPairs(spec Spec, what string, pairs, environ []string, file string) ([]string, error) {
	return expandWith(spec, what, what+"s", pairs, envMap(environ), file)
}

func envMap(environ []string) map[string]string {
	vars := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return vars
}

// expandWith expands ${VAR} and $VAR in the values of pairs from vars; key names the plugin's
// key holding them in the hint. A plugin silently given an empty token fails later and less
// clearly, so an unset variable is an error.
func expandWith(spec Spec, what, key string, pairs []string, vars map[string]string, file string) ([]string, error) {
	out := make([]string, 0, len(pairs))
	for _, kv := range pairs {
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
			return nil, fault.New(fault.UserPluginsEnvUnset, "plugin %q: %s %s references $%s, which is not set in awf's environment", spec.Name, what, name, missing[0]).
				WithHint("export %s before running awf, or remove it from the plugin's %s in %s", missing[0], key, file)
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
