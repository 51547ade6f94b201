package workflow

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
)

// ApplyShell gives each command step and hook command without a `shell:` of its own the
// workflow's, so the run reads one field per command. A loader calls it once, after decoding.
func (w *Workflow) ApplyShell() {
	setHooks := func(sh string, hooks ...Hook) {
		for _, h := range hooks {
			for i := range h {
				if h[i].Shell == "" {
					h[i].Shell = sh
				}
			}
		}
	}
	setHooks(w.Shell, w.Hooks.Start, w.Hooks.End, w.Hooks.Error, w.Hooks.Cancel)
	for _, s := range w.States {
		sh := w.Shell
		if c := s.Command(); c != nil {
			if c.Shell == "" {
				c.Shell = w.Shell
			}
			sh = c.Shell
		}
		setHooks(sh, s.Hooks.Pre, s.Hooks.Post)
	}
}

// shellProgram checks a `shell:` value: a POSIX-like shell, since command text reads each
// value as "${AWF_V_n}" (docs/guide/workflows.md).
func (v *validator) shellProgram(pos fault.Position, where, sh string) {
	if sh == "" || strings.ContainsAny(sh, " \t") || !shellsafe.IsShell(sh) {
		v.ds.Errorf(pos, fault.UserWorkflowShell, "name a POSIX-like shell, e.g. /bin/sh, /bin/bash, bash or dash; run other interpreters from a script_file with a #! line",
			"%s is %q, which is not a shell awf can hand values to", where, sh)
	}
}

// envPrefixes are the variable names awf sets for each command: a workflow may not claim them.
var envPrefixes = []string{shellsafe.EnvPrefix, InputEnvPrefix}

// reservedEnv reports the prefix of awf's own that name starts with, if any.
func reservedEnv(name string) string {
	for _, p := range envPrefixes {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	return ""
}

// InputEnvPrefix starts the variables that carry a workflow's inputs to a script_file run by
// an interpreter that is not a shell (AWF_INPUT_<NAME>).
const InputEnvPrefix = "AWF_INPUT_"

// InputEnvName is the variable an input reaches a non-shell script_file in: AWF_INPUT_ and the
// input's name in upper case, each character other than a letter or digit made _.
func InputEnvName(input string) string {
	b := []byte(strings.ToUpper(input))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return InputEnvPrefix + string(b)
}

// templatedScript is how a {{…}} that reads data or calls a helper begins.
var templatedScript = sync.OnceValue(func() *regexp.Regexp {
	names := append(slices.Clone(TemplateRoots), "if", "range", "with", "block", "define", "template")
	for k := range TemplateFuncs() {
		names = append(names, regexp.QuoteMeta(k))
	}
	return regexp.MustCompile(`\{\{-?\s*(\.|\$|(` + strings.Join(names, "|") + `)\b)`)
})

// IsTemplated reports whether a script holds a template action, as opposed to a {{ of its own
// language (a Python f-string's {{x}}, a Jinja block): a script run by an interpreter that is
// not a shell gets no template expansion, and one that looks templated is refused.
func IsTemplated(script string) bool {
	return strings.Contains(script, "{{") && templatedScript().MatchString(script)
}
