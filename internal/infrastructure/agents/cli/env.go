package cli

import (
	"sort"
	"strings"
)

// lookupEnv returns the last value of key in env (the one exec would use), or "".
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// LookupEnv is lookupEnv for provider packages: the value of key in env, or "".
func LookupEnv(env []string, key string) string { return lookupEnv(env, key) }

// BuildEnv layers a CLI's environment, each layer winning over the ones before it:
//
//	base      the environment awf was given (Config.Environ)
//	defaults  the provider's quiet settings (telemetry and update checks off): a step may
//	          turn them back on through its env option
//	user      the step's env option
//	forced    what isolation depends on (private config locations): nothing overrides them
//
// Names in unset are removed from base. Existing names keep their place, new ones are appended
// sorted, and each name appears once, so the result is stable and easy to test.
func BuildEnv(base []string, defaults, user, forced map[string]string, unset []string) []string {
	drop := make(map[string]bool, len(unset))
	for _, k := range unset {
		drop[k] = true
	}
	vals := make(map[string]string, len(base))
	var order []string
	for _, kv := range base {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || drop[k] {
			continue
		}
		if _, seen := vals[k]; !seen {
			order = append(order, k)
		}
		vals[k] = v
	}
	var added []string
	for _, layer := range []map[string]string{defaults, user, forced} {
		for k, v := range layer {
			if _, seen := vals[k]; !seen {
				added = append(added, k)
			}
			vals[k] = v
		}
	}
	sort.Strings(added)
	out := make([]string, 0, len(order)+len(added))
	for _, k := range append(order, added...) {
		out = append(out, k+"="+vals[k])
	}
	return out
}
