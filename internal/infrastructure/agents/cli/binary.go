package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Binary says where a provider's CLI is looked for and how to install it.
type Binary struct {
	Provider string // "claude": names the CLI in messages and the AWF_<PROVIDER>_BIN variable
	Name     string // executable looked up in PATH: "claude"
	Install  string // the command that installs the version awf was verified with
}

// EnvVar is the environment variable that overrides the binary: AWF_CLAUDE_BIN, ….
func (b Binary) EnvVar() string {
	return "AWF_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(b.Provider)) + "_BIN"
}

// Resolve finds the binary: the step's `binary` option first (a path, relative to the step's
// dir, or a name looked up in PATH), then the AWF_<PROVIDER>_BIN variable (relative to awf's
// working directory), then Name in PATH. PATH and the variable are read from env, the
// environment the CLI will get, so a step's view and the lookup agree.
func (b Binary) Resolve(option, stepDir string, env []string) (string, error) {
	getenv := func(k string) string { return lookupEnv(env, k) }
	switch {
	case option != "":
		return b.find(option, stepDir, "options.binary", getenv("PATH"))
	case getenv(b.EnvVar()) != "":
		return b.find(getenv(b.EnvVar()), "", b.EnvVar(), getenv("PATH"))
	}
	if p, ok := lookPath(b.Name, getenv("PATH")); ok {
		return p, nil
	}
	return "", fault.New(fault.ExecutionAgentCLINotFound, "%s CLI not found: no %q in PATH", b.Provider, b.Name).
		WithHint("install it with `%s`, or set options.binary or %s to its path", b.Install, b.EnvVar())
}

// find resolves a path or bare name given by the user; from says where it came from.
func (b Binary) find(name, base, from, path string) (string, error) {
	if !strings.ContainsRune(name, os.PathSeparator) {
		if p, ok := lookPath(name, path); ok {
			return p, nil
		}
		return "", fault.New(fault.ExecutionAgentCLINotFound, "%s CLI not found: %s names %q, which is not in PATH", b.Provider, from, name).
			WithHint("give an absolute path, or install it with `%s`", b.Install)
	}
	p := name
	if !filepath.IsAbs(p) {
		if base != "" {
			p = filepath.Join(base, p)
		} else if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	if !executable(p) {
		return "", fault.New(fault.ExecutionAgentCLINotFound, "%s CLI not found: %s is %s, which is not an executable file", b.Provider, from, p).
			WithHint("fix the path, or install the CLI with `%s`", b.Install)
	}
	return p, nil
}

// lookPath is exec.LookPath over a given PATH value rather than awf's own.
func lookPath(name, path string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue // an empty entry means ".", which exec.LookPath refuses too
		}
		p := filepath.Join(dir, name)
		if !filepath.IsAbs(p) {
			continue
		}
		if executable(p) {
			return p, true
		}
	}
	return "", false
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
