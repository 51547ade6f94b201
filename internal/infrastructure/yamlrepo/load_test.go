package yamlrepo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
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
		{"yaml_syntax", []at{{fault.UserYAMLSyntax, 3, 1}}},
		{"unknown_anchor", []at{{fault.UserYAMLSyntax, 6, 14}}},
		{"duplicate_key", []at{{fault.UserYAMLDuplicateKey, 7, 5}}},
		{"empty", []at{{fault.UserWorkflowEmpty, 1, 1}}},
		{"not_a_mapping", []at{{fault.UserWorkflowInvalidValue, 1, 1}}},
		{"two_documents", []at{{fault.UserWorkflowInvalidValue, 10, 1}}},
		{"unknown_key", []at{{fault.UserWorkflowUnknownKey, 2, 1}}},
		{"unknown_state_key", []at{{fault.UserWorkflowUnknownKey, 7, 5}}},
		{"invalid_value_kind", []at{{fault.UserWorkflowInvalidValue, 7, 17}}},
		{"invalid_value_bool", []at{{fault.UserWorkflowInvalidValue, 4, 15}}},
		{"invalid_timeout", []at{{fault.UserWorkflowInvalidTimeout, 7, 14}}},
		{"negative_timeout", []at{{fault.UserWorkflowInvalidTimeout, 7, 14}}},
		{"missing_name", []at{{fault.UserWorkflowMissingName, 1, 1}}},
		{"no_states", []at{{fault.UserWorkflowNoStates, 1, 1}}},
		{"missing_initial", []at{{fault.UserWorkflowMissingInitial, 2, 1}}},
		{"unknown_initial", []at{{fault.UserWorkflowUnknownInitial, 3, 12}}},
		{"missing_state_type", []at{{fault.UserWorkflowMissingStateType, 4, 3}}},
		{"unknown_state_type", []at{{fault.UserWorkflowUnknownStateType, 5, 11}}},
		{"key_not_allowed", []at{{fault.UserWorkflowKeyNotAllowed, 8, 5}}},
		{"proxy_on_command", []at{{fault.UserWorkflowKeyNotAllowed, 7, 5}}},
		{"unknown_target", []at{{fault.UserWorkflowUnknownTarget, 7, 17}}},
		{"no_terminal", []at{{fault.UserWorkflowNoTerminal, 2, 1}, {fault.UserWorkflowUnreachableState, 8, 3}}},
		{"no_exit_missing", []at{{fault.UserWorkflowNoExit, 4, 3}}},
		{"no_exit_cycle", []at{{fault.UserWorkflowNoExit, 9, 3}, {fault.UserWorkflowNoExit, 13, 3}}},
		{"unreachable_state", []at{{fault.UserWorkflowUnreachableState, 10, 3}}},
		{"terminal_transition", []at{{fault.UserWorkflowTerminalTransition, 10, 5}}},
		{"invalid_status", []at{{fault.UserWorkflowInvalidStatus, 10, 13}}},
		{"missing_command", []at{{fault.UserWorkflowMissingCommand, 4, 3}}},
		{"missing_provider", []at{{fault.UserAgentMissingProvider, 4, 3}}},
		{"unknown_provider", []at{{fault.UserAgentUnknownProvider, 6, 15}}},
		{"prompt_conflict", []at{{fault.UserAgentPromptConflict, 8, 5}}},
		{"missing_prompt", []at{{fault.UserAgentMissingPrompt, 4, 3}}},
		{"input_missing_name", []at{{fault.UserInputMissingName, 3, 5}}},
		{"input_invalid_name", []at{{fault.UserInputInvalidName, 3, 11}}},
		{"input_duplicate_name", []at{{fault.UserInputDuplicateName, 4, 11}}},
		{"input_invalid_type", []at{{fault.UserInputInvalidType, 4, 11}}},
		{"input_invalid_default", []at{{fault.UserInputInvalidDefault, 5, 14}}},
		{"template_syntax", []at{{fault.UserTemplateSyntax, 6, 14}}},
		{"template_unknown_input", []at{{fault.UserTemplateUnknownInput, 8, 14}}},
		{"template_unknown_state", []at{{fault.UserTemplateUnknownState, 6, 14}}},
		{"template_unknown_field", []at{{fault.UserTemplateUnknownField, 6, 14}}},
		{"template_unknown_reference", []at{{fault.UserTemplateUnknownReference, 6, 14}}},
		{"proxy_unknown_key", []at{{fault.UserMCPProxyUnknownKey, 10, 7}}},
		{"proxy_unknown_intent_key", []at{{fault.UserMCPProxyUnknownKey, 11, 9}}},
		{"proxy_empty", []at{{fault.UserMCPProxyEmptyProxy, 8, 5}}},
		{"proxy_invalid_intent", []at{{fault.UserMCPProxyInvalidIntent, 11, 23}}},
		{"proxy_missing_plugin", []at{{fault.UserMCPProxyMissingPlugin, 11, 11}}},
		{"proxy_empty_expose", []at{{fault.UserMCPProxyEmptyExpose, 11, 11}}},
		{"proxy_not_enabled", []at{{fault.UserMCPProxyNotEnabled, 8, 5}}},
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
		{fault.UserInputInvalidType, 4, 11},
		{fault.UserWorkflowInvalidValue, 5, 15},
		{fault.UserInputInvalidDefault, 8, 14},
		{fault.UserInputDuplicateName, 9, 11},
		{fault.UserWorkflowUnknownInitial, 11, 12},
		{fault.UserWorkflowNoExit, 12, 3},
		{fault.UserAgentUnknownProvider, 14, 15},
		{fault.UserTemplateUnknownInput, 15, 13},
		{fault.UserTemplateUnknownField, 15, 13},
		{fault.UserTemplateUnknownReference, 15, 13},
		{fault.UserAgentPromptConflict, 16, 5},
		{fault.UserWorkflowKeyNotAllowed, 17, 5},
		{fault.UserWorkflowInvalidTimeout, 18, 14},
		{fault.UserWorkflowUnknownKey, 19, 5},
		{fault.UserMCPProxyEmptyProxy, 20, 5},
		{fault.UserMCPProxyUnknownKey, 23, 7},
		{fault.UserMCPProxyInvalidIntent, 25, 23},
		{fault.UserWorkflowUnknownStateType, 27, 11},
		{fault.UserTemplateSyntax, 28, 14},
		{fault.UserWorkflowNoExit, 30, 3},
		{fault.UserWorkflowTerminalTransition, 34, 46},
		{fault.UserYAMLDuplicateKey, 35, 3},
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
		{"unknown_state_key", fault.UserWorkflowUnknownKey, "did you mean 'timeout'?"},
		{"proxy_unknown_key", fault.UserMCPProxyUnknownKey, "did you mean 'intercept_builtins'?"},
		{"unknown_initial", fault.UserWorkflowUnknownInitial, "did you mean 'build'?"},
		{"unknown_target", fault.UserWorkflowUnknownTarget, "did you mean 'done'?"},
		{"unknown_provider", fault.UserAgentUnknownProvider, "did you mean 'gemini'?"},
		{"input_invalid_type", fault.UserInputInvalidType, "did you mean 'integer'?"},
		{"template_unknown_field", fault.UserTemplateUnknownField, "did you mean 'Output'?"},
		{"template_unknown_reference", fault.UserTemplateUnknownReference, "did you mean '.inputs'?"},
		{"unknown_state_type", fault.UserWorkflowUnknownStateType, "valid: command, agent, terminal, parallel, for_each, while, call_workflow, operation, step"},
		{"no_exit_missing", fault.UserWorkflowNoExit, "add `on_success: <state>` or make it a terminal state"},
		{"key_not_allowed", fault.UserWorkflowKeyNotAllowed, "remove `command:`, or change `type:` to command"},
		{"yaml_syntax", fault.UserYAMLSyntax, "indent with spaces, not tabs"},
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
		{"states is a list", "name: x\nstates:\n  - a\n", []at{{fault.UserWorkflowInvalidValue, 3, 3}}},
		{"inputs is a mapping", "name: x\ninputs: {a: 1}\n" + base[8:], []at{{fault.UserWorkflowInvalidValue, 2, 9}}},
		{"state is a scalar", base + "  e: terminal\n", []at{{fault.UserWorkflowInvalidValue, 6, 6}}},
		{"initial is a mapping", strings.Replace(base, "initial: a", "initial: {type: terminal}", 1), []at{{fault.UserWorkflowInvalidValue, 3, 3}}},
		{"self alias in options", "name: x\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: p\n    options: &o {a: [*o]}\n    on_success: d\n  d: {type: terminal}\n",
			[]at{{fault.UserWorkflowInvalidValue, 8, 22}}},
		{"alias bomb", bomb(), []at{{fault.UserWorkflowInvalidValue, 10, 40}}},
		{"duplicate under an unknown key", "name: x\nextra:\n  a: 1\n  a: 2\n" + base[8:], []at{{fault.UserWorkflowUnknownKey, 2, 1}, {fault.UserYAMLDuplicateKey, 4, 3}}},
		{"duplicate deep in options", strings.Replace(base, "a: {type: command, command: make, on_success: d}",
			"a: {type: agent, provider: claude, prompt: p, on_success: d, options: {h: {k: 1, k: 2}}}", 1),
			[]at{{fault.UserYAMLDuplicateKey, 4, 84}}},
		{"non scalar key", "name: x\n? [a]\n: 1\n" + base[8:], []at{{fault.UserWorkflowInvalidValue, 2, 3}}},
		{"expose not a list", strings.Replace(base, "a: {type: command, command: make, on_success: d}",
			"a: {type: agent, provider: claude, prompt: p, on_success: d, mcp_proxy: {enable: true, plugin_tools: [{plugin: p, expose: op}]}}", 1),
			[]at{{fault.UserWorkflowInvalidValue, 4, 125}}},
		{"bool as text", strings.Replace(base, "command: make", "command: make, mcp_proxy: {enable: \"true\"}", 1),
			[]at{{fault.UserWorkflowKeyNotAllowed, 4, 37}, {fault.UserWorkflowInvalidValue, 4, 57}}},
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
