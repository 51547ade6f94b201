package yamlrepo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// at is an expected diagnostic: code and exact position.
type at struct {
	code      string
	line, col int
}

func (a at) String() string { return fmt.Sprintf("%s@%d:%d", a.code, a.line, a.col) }

func got(ds fault.Diagnostics) []at {
	out := make([]at, 0, len(ds))
	for _, d := range ds {
		out = append(out, at{d.Code, d.Line, d.Column})
	}
	return out
}

func sameDiags(t *testing.T, file string, ds fault.Diagnostics, want []at) {
	t.Helper()
	g := got(ds)
	if fmt.Sprint(g) != fmt.Sprint(want) {
		var b strings.Builder
		for _, d := range ds {
			b.WriteString("\n  " + d.String())
		}
		t.Errorf("%s:\n got  %v\n want %v\nfull:%s", file, g, want, b.String())
	}
	for _, d := range ds {
		if d.File != file {
			t.Errorf("%s: diagnostic %s has File %q, want the path as given", file, d.Code, d.File)
		}
		if d.Message == "" || d.Hint == "" {
			t.Errorf("%s: diagnostic %s lacks a message or a hint: %q / %q", file, d.Code, d.Message, d.Hint)
		}
	}
}

// TestLoadFixtures holds one fixture per diagnostic code, each asserting every diagnostic the
// file produces (so a cascade of follow-up errors is caught too).
func TestLoadFixtures(t *testing.T) {
	tests := []struct {
		file string
		want []at
	}{
		{"yaml_syntax", []at{{workflow.CodeYAMLSyntax, 3, 1}}},
		{"unknown_anchor", []at{{workflow.CodeYAMLSyntax, 6, 14}}},
		{"duplicate_key", []at{{workflow.CodeDuplicateKey, 7, 5}}},
		{"empty", []at{{workflow.CodeEmpty, 1, 1}}},
		{"not_a_mapping", []at{{workflow.CodeInvalidValue, 1, 1}}},
		{"two_documents", []at{{workflow.CodeInvalidValue, 10, 1}}},
		{"unknown_key", []at{{workflow.CodeUnknownKey, 2, 1}}},
		{"unknown_state_key", []at{{workflow.CodeUnknownKey, 7, 5}}},
		{"invalid_value_kind", []at{{workflow.CodeInvalidValue, 7, 17}}},
		{"invalid_value_bool", []at{{workflow.CodeInvalidValue, 4, 15}}},
		{"invalid_timeout", []at{{workflow.CodeInvalidTimeout, 7, 14}}},
		{"negative_timeout", []at{{workflow.CodeInvalidTimeout, 7, 14}}},
		{"missing_name", []at{{workflow.CodeMissingName, 1, 1}}},
		{"no_states", []at{{workflow.CodeNoStates, 1, 1}}},
		{"missing_initial", []at{{workflow.CodeMissingInitial, 2, 1}}},
		{"unknown_initial", []at{{workflow.CodeUnknownInitial, 3, 12}}},
		{"missing_state_type", []at{{workflow.CodeMissingStateType, 4, 3}}},
		{"unknown_state_type", []at{{workflow.CodeUnknownStateType, 5, 11}}},
		{"key_not_allowed", []at{{workflow.CodeKeyNotAllowed, 8, 5}}},
		{"proxy_on_command", []at{{workflow.CodeKeyNotAllowed, 7, 5}}},
		{"unknown_target", []at{{workflow.CodeUnknownTarget, 7, 17}}},
		{"no_terminal", []at{{workflow.CodeNoTerminal, 2, 1}, {workflow.CodeUnreachableState, 8, 3}}},
		{"no_exit_missing", []at{{workflow.CodeNoExit, 4, 3}}},
		{"no_exit_cycle", []at{{workflow.CodeNoExit, 9, 3}, {workflow.CodeNoExit, 13, 3}}},
		{"unreachable_state", []at{{workflow.CodeUnreachableState, 10, 3}}},
		{"terminal_transition", []at{{workflow.CodeTerminalTransition, 10, 5}}},
		{"invalid_status", []at{{workflow.CodeInvalidStatus, 10, 13}}},
		{"missing_command", []at{{workflow.CodeMissingCommand, 4, 3}}},
		{"missing_provider", []at{{workflow.CodeMissingProvider, 4, 3}}},
		{"unknown_provider", []at{{workflow.CodeUnknownProvider, 6, 15}}},
		{"prompt_conflict", []at{{workflow.CodePromptConflict, 8, 5}}},
		{"missing_prompt", []at{{workflow.CodeMissingPrompt, 4, 3}}},
		{"input_missing_name", []at{{workflow.CodeInputMissingName, 3, 5}}},
		{"input_invalid_name", []at{{workflow.CodeInputInvalidName, 3, 11}}},
		{"input_duplicate_name", []at{{workflow.CodeInputDuplicateName, 4, 11}}},
		{"input_invalid_type", []at{{workflow.CodeInputInvalidType, 4, 11}}},
		{"input_invalid_default", []at{{workflow.CodeInputInvalidDefault, 5, 14}}},
		{"template_syntax", []at{{workflow.CodeTemplateSyntax, 6, 14}}},
		{"template_unknown_input", []at{{workflow.CodeTemplateUnknownInput, 8, 14}}},
		{"template_unknown_state", []at{{workflow.CodeTemplateUnknownState, 6, 14}}},
		{"template_unknown_field", []at{{workflow.CodeTemplateUnknownField, 6, 14}}},
		{"template_unknown_reference", []at{{workflow.CodeTemplateUnknownReference, 6, 14}}},
		{"proxy_unknown_key", []at{{workflow.CodeProxyUnknownKey, 10, 7}}},
		{"proxy_unknown_intent_key", []at{{workflow.CodeProxyUnknownKey, 11, 9}}},
		{"proxy_empty", []at{{workflow.CodeProxyEmpty, 8, 5}}},
		{"proxy_invalid_intent", []at{{workflow.CodeProxyInvalidIntent, 11, 23}}},
		{"proxy_missing_plugin", []at{{workflow.CodeProxyMissingPlugin, 11, 11}}},
		{"proxy_empty_expose", []at{{workflow.CodeProxyEmptyExpose, 11, 11}}},
		{"proxy_not_enabled", []at{{workflow.CodeProxyNotEnabled, 8, 5}}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", tt.file+".yaml")
			w, ds, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if w == nil {
				t.Fatal("Load returned no workflow; want a best-effort one")
			}
			sameDiags(t, path, ds, tt.want)
		})
		covered[tt.file] = true
	}
	// Every fixture on disk is in the table: a fixture nobody asserts is dead weight.
	files, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.yaml"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		if !covered[name] {
			t.Errorf("fixture %s has no row in the table", f)
		}
	}
}

// TestLoadReportsEverythingAtOnce checks that one run reports every problem of a file, from
// every layer (YAML, schema, semantics), in position order.
func TestLoadReportsEverythingAtOnce(t *testing.T) {
	path := filepath.Join("testdata", "multi.yaml")
	_, ds, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sameDiags(t, path, ds, []at{
		{workflow.CodeInputInvalidType, 4, 11},
		{workflow.CodeInvalidValue, 5, 15},
		{workflow.CodeInputInvalidDefault, 8, 14},
		{workflow.CodeInputDuplicateName, 9, 11},
		{workflow.CodeUnknownInitial, 11, 12},
		{workflow.CodeNoExit, 12, 3},
		{workflow.CodeUnknownProvider, 14, 15},
		{workflow.CodeTemplateUnknownInput, 15, 13},
		{workflow.CodeTemplateUnknownField, 15, 13},
		{workflow.CodeTemplateUnknownReference, 15, 13},
		{workflow.CodePromptConflict, 16, 5},
		{workflow.CodeKeyNotAllowed, 17, 5},
		{workflow.CodeInvalidTimeout, 18, 14},
		{workflow.CodeUnknownKey, 19, 5},
		{workflow.CodeProxyEmpty, 20, 5},
		{workflow.CodeProxyUnknownKey, 23, 7},
		{workflow.CodeProxyInvalidIntent, 25, 23},
		{workflow.CodeUnknownStateType, 27, 11},
		{workflow.CodeTemplateSyntax, 28, 14},
		{workflow.CodeNoExit, 30, 3},
		{workflow.CodeTerminalTransition, 34, 46},
		{workflow.CodeDuplicateKey, 35, 3},
	})
	if !ds.HasErrors() || ds.AsError("bad") == nil {
		t.Error("diagnostics with errors must turn into an error")
	}
}

// TestHints checks the wording users rely on: did-you-mean for typos, and an actionable fix.
func TestHints(t *testing.T) {
	tests := []struct {
		file, code, hint string
	}{
		{"unknown_state_key", workflow.CodeUnknownKey, "did you mean 'timeout'?"},
		{"proxy_unknown_key", workflow.CodeProxyUnknownKey, "did you mean 'intercept_builtins'?"},
		{"unknown_initial", workflow.CodeUnknownInitial, "did you mean 'build'?"},
		{"unknown_target", workflow.CodeUnknownTarget, "did you mean 'done'?"},
		{"unknown_provider", workflow.CodeUnknownProvider, "did you mean 'gemini'?"},
		{"input_invalid_type", workflow.CodeInputInvalidType, "did you mean 'integer'?"},
		{"template_unknown_field", workflow.CodeTemplateUnknownField, "did you mean 'Output'?"},
		{"template_unknown_reference", workflow.CodeTemplateUnknownReference, "did you mean '.inputs'?"},
		{"unknown_state_type", workflow.CodeUnknownStateType, "valid: command, agent, terminal, step"},
		{"no_exit_missing", workflow.CodeNoExit, "add `on_success: <state>` or make it a terminal state"},
		{"key_not_allowed", workflow.CodeKeyNotAllowed, "remove `command:`, or change `type:` to command"},
		{"yaml_syntax", workflow.CodeYAMLSyntax, "indent with spaces, not tabs"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, ds, err := Load(filepath.Join("testdata", "invalid", tt.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Code == tt.code {
					if !strings.Contains(d.Hint, tt.hint) {
						t.Errorf("hint %q does not contain %q", d.Hint, tt.hint)
					}
					return
				}
			}
			t.Errorf("no %s diagnostic in %v", tt.code, got(ds))
		})
	}
}

// TestParseInMemory covers shapes that are awkward as files: self-referencing aliases, alias
// bombs, wrong kinds at each level.
func TestParseInMemory(t *testing.T) {
	base := "name: x\nstates:\n  initial: a\n  a: {type: command, command: make, on_success: d}\n  d: {type: terminal}\n"
	tests := []struct {
		name string
		src  string
		want []at
	}{
		{"valid", base, []at{}},
		{"states is a list", "name: x\nstates:\n  - a\n", []at{{workflow.CodeInvalidValue, 3, 3}}},
		{"inputs is a mapping", "name: x\ninputs: {a: 1}\n" + base[8:], []at{{workflow.CodeInvalidValue, 2, 9}}},
		{"state is a scalar", base + "  e: terminal\n", []at{{workflow.CodeInvalidValue, 6, 6}}},
		{"initial is a mapping", strings.Replace(base, "initial: a", "initial: {type: terminal}", 1), []at{{workflow.CodeInvalidValue, 3, 3}}},
		{"self alias in options", "name: x\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: p\n    options: &o {a: [*o]}\n    on_success: d\n  d: {type: terminal}\n",
			[]at{{workflow.CodeInvalidValue, 8, 22}}},
		{"alias bomb", bomb(), []at{{workflow.CodeInvalidValue, 10, 40}}},
		{"duplicate under an unknown key", "name: x\nextra:\n  a: 1\n  a: 2\n" + base[8:], []at{{workflow.CodeUnknownKey, 2, 1}, {workflow.CodeDuplicateKey, 4, 3}}},
		{"duplicate deep in options", strings.Replace(base, "a: {type: command, command: make, on_success: d}",
			"a: {type: agent, provider: claude, prompt: p, on_success: d, options: {h: {k: 1, k: 2}}}", 1),
			[]at{{workflow.CodeDuplicateKey, 4, 84}}},
		{"non scalar key", "name: x\n? [a]\n: 1\n" + base[8:], []at{{workflow.CodeInvalidValue, 2, 3}}},
		{"expose not a list", strings.Replace(base, "a: {type: command, command: make, on_success: d}",
			"a: {type: agent, provider: claude, prompt: p, on_success: d, mcp_proxy: {enable: true, plugin_tools: [{plugin: p, expose: op}]}}", 1),
			[]at{{workflow.CodeInvalidValue, 4, 125}}},
		{"bool as text", strings.Replace(base, "command: make", "command: make, mcp_proxy: {enable: \"true\"}", 1),
			[]at{{workflow.CodeKeyNotAllowed, 4, 37}, {workflow.CodeInvalidValue, 4, 57}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ds := Parse("mem.yaml", []byte(tt.src))
			if w == nil {
				t.Fatal("nil workflow")
			}
			g := got(ds)
			if fmt.Sprint(g) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v\n%v", g, tt.want, ds)
			}
		})
	}
}

// bomb is a "billion laughs" document: each level doubles ten times.
func bomb() string {
	var b strings.Builder
	b.WriteString("name: x\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: p\n    on_success: d\n    options:\n      l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "      l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("  d: {type: terminal}\n")
	return b.String()
}
