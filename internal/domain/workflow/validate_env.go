package workflow

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// envName is what a shell accepts as a variable name.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// env checks the names under `env:`: each a valid variable name, none twice, none of awf's
// own; and the workflow's `shell:`.
func (v *validator) env() {
	if _, written := v.w.Pos["shell"]; written || v.w.Shell != "" {
		v.shellProgram(v.w.ValueAt("shell"), "shell", v.w.Shell)
	}
	if _, written := v.w.Pos["timeout"]; (written || v.w.Timeout != 0) && v.w.Timeout <= 0 {
		v.ds.Errorf(v.w.ValueAt("timeout"), fault.UserWorkflowInvalidTimeout, "write a positive Go duration such as 30m or 2h, or a number of seconds, or remove `timeout:` for no limit",
			"the workflow's timeout must be positive, got %s", v.w.Timeout)
	}
	seen := map[string]bool{}
	for i, name := range v.w.Env {
		pos := v.w.ValueAt(fmt.Sprintf("env[%d]", i))
		switch {
		case !envName().MatchString(name):
			v.ds.Errorf(pos, fault.UserEnvInvalidName, "a variable name is letters, digits and _, not starting with a digit, e.g. GITHUB_TOKEN",
				"env lists %q, which is not an environment variable name", name)
		case seen[name]:
			v.ds.Errorf(pos, fault.UserEnvInvalidName, "remove the second one", "env lists %q twice", name)
		case reservedEnv(name) != "":
			v.ds.Errorf(pos, fault.UserEnvInvalidName, "rename the variable: awf sets the "+reservedEnv(name)+"* variables itself, for each command",
				"env lists %q, a name awf reserves", name)
		}
		seen[name] = true
	}
}

// MissingEnv returns the variables of w.Env that env does not set, or sets empty, in the order
// the workflow lists them.
func MissingEnv(w *Workflow, env map[string]string) []string {
	var missing []string
	for _, name := range w.Env {
		if env[name] == "" {
			missing = append(missing, name)
		}
	}
	return missing
}

// stepEnv checks a command state's `env:`: each name a variable name and none of awf's own.
func (v *validator) stepEnv(s *State, vars []EnvVar) {
	for _, e := range vars {
		pos := s.ValueAt("env." + e.Name)
		switch {
		case !envName().MatchString(e.Name):
			v.ds.Errorf(pos, fault.UserEnvInvalidName, "a variable name is letters, digits and _, not starting with a digit, e.g. GOFLAGS",
				"env of state %q sets %q, which is not an environment variable name", s.Name, e.Name)
		case reservedEnv(e.Name) != "":
			v.ds.Errorf(pos, fault.UserEnvInvalidName, "rename the variable: awf sets the "+reservedEnv(e.Name)+"* variables itself, for each command",
				"env of state %q sets %q, a name awf reserves", s.Name, e.Name)
		}
	}
}
