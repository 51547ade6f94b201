package run

import (
	"bytes"
	"strings"
	"text/template"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// render fills one template from scope. Missing keys are errors: a typo must not become an
// empty string silently passed to a shell.
func render(name, text string, scope Scope, pos fault.Position) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(Funcs).Parse(text)
	if err != nil {
		return "", fault.Wrap(err, fault.UserTemplateSyntax, "template in %s does not parse", name).At(pos)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, scope.Data()); err != nil {
		return "", fault.Wrap(err, fault.UserTemplateExec, "template in %s failed", name).At(pos).
			WithHint("a referenced state may not have run yet on this path, or an input or env var is missing")
	}
	return b.String(), nil
}

// Funcs are the template functions workflows may use. quote makes a value safe to paste into a
// shell command, which plain interpolation of user input is not.
var Funcs = template.FuncMap{
	"quote": ShellQuote,
}

// ShellQuote returns s single-quoted for POSIX shells.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
