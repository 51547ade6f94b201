package run

import (
	"bytes"
	"strings"
	"text/template"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// render fills one template from scope. Missing keys are errors: a typo must not become an
// empty string silently passed to a shell.
func render(name, text string, scope Scope, pos fault.Position) (string, error) {
	return fill(name, text, scope, pos, false)
}

// renderShell fills a template that becomes shell code: every value is escaped for the place
// it sits in (shellsafe), so the shell reads it as data and runs nothing from it.
func renderShell(name, text string, scope Scope, pos fault.Position) (string, error) {
	return fill(name, text, scope, pos, true)
}

func fill(name, text string, scope Scope, pos fault.Position, shell bool) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	data := scope.Data()
	t, err := template.New(name).Option("missingkey=error").Funcs(Funcs).Funcs(scopeFuncs(scope)).Funcs(namespaces(data)).Parse(text)
	if err != nil {
		return "", fault.Wrap(err, fault.UserTemplateSyntax, "template in %s does not parse", name).At(pos)
	}
	if shell {
		if _, err := shellsafe.Prepare(t, text); err != nil {
			return "", fault.Wrap(err, fault.UserTemplateShellPlace, "template in %s puts a value where the shell cannot take it as data", name).At(pos)
		}
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fault.Wrap(err, fault.UserTemplateExec, "template in %s failed", name).At(pos).
			WithHint("a referenced state may not have run yet on this path, or an input or env var is missing")
	}
	return b.String(), nil
}

// namespaces lets templates name the data without the leading dot, as many of the reference
// awf's workflows do: {{inputs.x}} reads what {{.inputs.x}} reads.
func namespaces(data map[string]any) template.FuncMap {
	fm := template.FuncMap{}
	for _, k := range workflow.TemplateRoots {
		v := data[k]
		fm[k] = func() any { return v }
	}
	return fm
}

// Funcs are the template functions workflows may use besides shellsafe's raw. Values in shell
// code are escaped whatever the author writes; quote is kept for workflows that already use it.
var Funcs = func() template.FuncMap {
	fm := shellsafe.Funcs() // raw
	fm["quote"] = ShellQuote
	fm["index"] = strictIndex
	for k, f := range textFuncs {
		fm[k] = f
	}
	// Each render binds readFile to its scope (scopeFuncs); this one only gives its shape.
	fm["readFile"] = func(path string) (string, error) { return Scope{}.readFileFunc()(path) }
	return fm
}()

// ShellQuote returns s single-quoted for POSIX shells.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
