package clitest

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Suite is the test every agent CLI's Spec passes: what all four must do alike (find the
// binary or say how to install it, run in the step's dir without touching HOME or the dir,
// stop the whole process group on Ctrl+C and on a timeout, turn exits and bad output into coded
// errors, check options), with what differs per CLI given as data. Strings in Proxy and Plain
// may hold {priv} (the CLI's private directory), {tmp} (the step's TempDir), {home} (the fake
// HOME) and {dir} (the step's dir).
type Suite struct {
	Spec        cli.Spec
	Name        string // the provider name the CLI must answer to
	InstallHint string // the install command the not-installed error must quote
	EnvVar      string // the variable that overrides the binary (AWF_CLAUDE_BIN)

	Proxy Run // a run with the proxy attached, intercept_builtins on
	Plain Run // a run without a proxy: no private directory at all

	Errors  []ErrorCase  // per-CLI failures, beside the shared ones
	Parse   []ParseCase  // recorded outputs of the real CLI
	Options []OptionCase // option tables
	Warning string       // what the isolation warning must say with intercept; "" = fully isolated
}

// Run is one successful run of the fake CLI and what it must have seen.
type Run struct {
	Report    string            // testdata file the fake prints on stdout
	Tools     []string          // the proxy's tools (Proxy only)
	Options   map[string]any    // step options beside binary; "env" entries are merged
	Environ   []string          // added to awf's environment (credentials)
	UserFiles map[string]string // written under the fake HOME before the run (the user's own config)

	Want      ports.AgentResult
	WantArgs  []string          // the exact argv after the binary
	WantEnv   map[string]string // exact values
	EnvPrefix map[string]string // values that must start so
	EnvLacks  []string          // variables that must not be set
	// WantFiles are the private files the CLI found, by path under the step's TempDir: exactly
	// these, each as File says.
	WantFiles map[string]File
}

// File is what a private file must hold: exactly Is when set, else each of Has and none of
// Lacks.
type File struct {
	Is    string
	Has   []string
	Lacks []string
}

// ErrorCase is one run that must fail with a code and a text.
type ErrorCase struct {
	Name     string
	Report   string   // testdata file printed on stdout
	Stderr   string   // testdata file printed on stderr
	Exit     string   // FAKE_EXIT
	Tools    []string // non-nil: attach the proxy with these tools
	WantCode string
	WantText string
}

// ParseCase is one output of the CLI and the result or error it must give.
type ParseCase struct {
	Name     string
	Stdout   string // testdata file, or the text itself when Inline
	Stderr   string // testdata file, or the text itself when Inline
	Inline   bool
	Exit     int
	WantCode string
	WantText string
	Want     ports.AgentResult
}

// OptionCase is one options mapping and its problems, in key order.
type OptionCase struct {
	Name string
	Opts map[string]any
	Want []OptionWant
}

// OptionWant is one expected problem: the key and texts its error must hold.
type OptionWant struct {
	Key string
	Has []string
}

// RunSuite runs every part of s as subtests.
func RunSuite(t *testing.T, s Suite) {
	t.Run("proxy run", func(t *testing.T) { s.runOK(t, s.Proxy, true) })
	t.Run("plain run", func(t *testing.T) { s.runOK(t, s.Plain, false) })
	t.Run("not installed", s.notInstalled)
	t.Run("errors", s.errors)
	t.Run("timeout stops the group", s.timeout)
	t.Run("ctrl-c stops the group", func(t *testing.T) {
		h := New(t)
		h.CheckCancel(cli.New(s.Spec, h.Config()), h.Attach(true, "Read"))
	})
	t.Run("parse", s.parse)
	t.Run("options", s.options)
	t.Run("isolation warning", s.warning)
}
