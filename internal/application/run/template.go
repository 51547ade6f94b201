package run

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/awf-dev/awf/internal/application/tmplfuncs"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// render fills one template from scope. Missing keys are errors: a typo must not become an
// empty string silently passed to a shell.
func render(name, text string, scope Scope, pos fault.Position) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	data := scope.Data()
	t, err := parseTemplate(name, text, scope, data, pos)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", execError(err, name, pos)
	}
	return b.String(), nil
}

// renderShell is a shell template as a person reads it (--dry-run's plan): each value shown
// where it goes, escaped for its place. What runs is renderCommand's.
func renderShell(name, text string, scope Scope, pos fault.Position) (string, error) {
	cmd, err := renderCommand(name, text, scope, pos)
	return cmd.Shown(), err
}

// renderCommand fills a template that becomes shell code: each value becomes a reference to a
// variable set beside the code (shellsafe), so the shell's parse of the code never depends on a
// value and runs nothing from it.
func renderCommand(name, text string, scope Scope, pos fault.Position) (shellsafe.Command, error) {
	if !strings.Contains(text, "{{") {
		return shellsafe.Command{Text: text}, nil
	}
	st, err := shellTemplates.get(name, text, pos)
	if err != nil {
		return shellsafe.Command{}, err
	}
	data := scope.Data()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.scope, st.data = scope, data
	cmd, err := st.bind.Execute(st.t, data)
	st.scope, st.data = Scope{}, nil // keep no run's data past the render
	if err != nil {
		return shellsafe.Command{}, execError(err, name, pos)
	}
	return cmd, nil
}

// shellTemplate is a parsed and prepared shell template. A step renders the same text at every
// attempt and iteration, so parsing and reading its shell places happen once; mu serves one
// execution at a time, as its binding and the scope and data its functions read (namespaces,
// readFile) are the execution's.
type shellTemplate struct {
	mu    sync.Mutex
	t     *template.Template
	bind  *shellsafe.Binding
	scope Scope
	data  map[string]any
}

// funcs are the functions that read the execution's scope and data.
func (st *shellTemplate) funcs() template.FuncMap {
	fm := template.FuncMap{"readFile": func(path string) (string, error) { return st.scope.readFileFunc()(path) }}
	for _, k := range workflow.TemplateRoots {
		fm[k] = func() any { return st.data[k] }
	}
	return fm
}

// templateCache holds the shell templates of a process, by name and text, up to a bound.
type templateCache struct {
	mu sync.Mutex
	m  map[string]*shellTemplate
}

var shellTemplates = &templateCache{m: map[string]*shellTemplate{}}

// cacheBound keeps the cache small: past it, it starts over.
const cacheBound = 512

func (c *templateCache) get(name, text string, pos fault.Position) (*shellTemplate, error) {
	key := name + "\x00" + text
	c.mu.Lock()
	st := c.m[key]
	c.mu.Unlock()
	if st != nil {
		return st, nil
	}
	st = &shellTemplate{}
	t, err := template.New(name).Option("missingkey=error").Funcs(Funcs).Funcs(st.funcs()).Parse(text)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserTemplateSyntax, "template in %s does not parse", name).At(pos)
	}
	bind, _, err := shellsafe.Prepare(t, text)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserTemplateShellPlace, "template in %s puts a value where the shell cannot take it as data", name).At(pos)
	}
	st.t, st.bind = t, bind
	c.mu.Lock()
	if len(c.m) >= cacheBound {
		c.m = map[string]*shellTemplate{}
	}
	c.m[key] = st
	c.mu.Unlock()
	return st, nil
}

func parseTemplate(name, text string, scope Scope, data map[string]any, pos fault.Position) (*template.Template, error) {
	t, err := template.New(name).Option("missingkey=error").Funcs(Funcs).Funcs(scopeFuncs(scope)).Funcs(namespaces(data)).Parse(text)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserTemplateSyntax, "template in %s does not parse", name).At(pos)
	}
	return t, nil
}

// renderNumbers fills a template whose text becomes an expression (a computed max_iterations):
// each value must be a number, so that it is data wherever it lands; a value such as
// int(env.X) would otherwise be evaluated as code.
func renderNumbers(name, text string, scope Scope, pos fault.Position) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	data := scope.Data()
	t, err := parseTemplate(name, text, scope, data, pos)
	if err != nil {
		return "", err
	}
	const check = "_awf_number"
	t.Funcs(template.FuncMap{check: numberValue})
	for _, n := range t.Tree.Root.Nodes {
		if a, ok := n.(*parse.ActionNode); ok && len(a.Pipe.Decl) == 0 {
			id := parse.NewIdentifier(check).SetTree(t.Tree).SetPos(a.Pos)
			a.Pipe.Cmds = append(a.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: a.Pos, Args: []parse.Node{id}})
		} else if !ok && n.Type() != parse.NodeText {
			return "", fault.New(fault.UserTemplateExec, "template in %s may only print values, one per {{…}}", name).At(pos)
		}
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		var nn notNumber
		if errors.As(err, &nn) {
			return "", fault.New(fault.UserTemplateExec, "%s reads %q, which is not a number: a value in an expression must be one", name, clip(string(nn))).At(pos).
				WithHint("give a number, or write an expression that reads the value as a variable, e.g. int(inputs.n) - 1")
		}
		return "", execError(err, name, pos)
	}
	return b.String(), nil
}

// notNumber is a value renderNumbers refused.
type notNumber string

func (n notNumber) Error() string { return fmt.Sprintf("%q is not a number", string(n)) }

// numberValue passes a number and refuses any other value.
func numberValue(v any) (string, error) {
	s := strings.TrimSpace(fmt.Sprint(v))
	if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "xXpPeEnN_") {
		return "", notNumber(s)
	}
	return s, nil
}

// clip shortens a value for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func execError(err error, name string, pos fault.Position) error {
	return fault.Wrap(err, fault.UserTemplateExec, "template in %s failed", name).At(pos).
		WithHint("a referenced state may not have run yet on this path, or an input or env var is missing")
}

// commandRequest renders a command step's code for the shell port; source is its command, or
// its script_file's content when key is "script_file". A script whose #! program is not a shell
// (python3, node, …) is not a template: it runs as written and reads the workflow's inputs from
// AWF_INPUT_<NAME> variables, since no quoting can make a value data in another language.
func commandRequest(st *workflow.State, key, source string, scope Scope) (ports.CommandRequest, error) {
	spec := st.Command()
	req := ports.CommandRequest{Shell: spec.Shell, Script: key == "script_file"}
	if prog := shellsafe.ShebangProgram(source); req.Script && prog != "" && !shellsafe.IsShell(prog) {
		if workflow.IsTemplated(source) {
			return req, fault.New(fault.UserTemplateInterpreter, "script_file of state %q runs %s, not a shell, and holds {{…}}: awf does not fill templates in it", st.Name, prog).
				At(st.ValueAt("script_file")).WithHint("read the inputs from the environment instead: input name is os.environ[\"%s\"]", workflow.InputEnvName("name"))
		}
		req.Command, req.Values, req.Shown = source, inputEnv(scope), source
		return req, nil
	}
	cmd, err := renderCommand(st.Name+"."+key, source, scope, st.KeyPos[key])
	req.Command, req.Values, req.Shown = cmd.Text, cmd.Env, cmd.Shown()
	return req, err
}

// hookCommand renders a hook's command: what to show, and the request for the shell port.
func hookCommand(where string, a workflow.HookAction, scope Scope) (string, ports.CommandRequest, error) {
	cmd, err := renderCommand(where, a.Command, scope, a.CommandPos)
	shown := cmd.Shown()
	return shown, ports.CommandRequest{Command: cmd.Text, Values: cmd.Env, Shell: a.Shell, Shown: shown}, err
}

// inputEnv is each input as AWF_INPUT_<NAME>=value, printed as a template prints it.
func inputEnv(scope Scope) []string {
	inputs, _ := scope.Data()["inputs"].(map[string]any)
	names := slices.Sorted(maps.Keys(inputs))
	env := make([]string, 0, len(names))
	for _, n := range names {
		env = append(env, workflow.InputEnvName(n)+"="+strings.ReplaceAll(fmt.Sprint(inputs[n]), "\x00", ""))
	}
	return env
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
	fm["quote"] = tmplfuncs.ShellQuote
	fm["index"] = strictIndex
	for k, f := range tmplfuncs.Text {
		fm[k] = f
	}
	// Each render binds readFile to its scope (scopeFuncs); this one only gives its shape.
	fm["readFile"] = func(path string) (string, error) { return Scope{}.readFileFunc()(path) }
	return fm
}()
