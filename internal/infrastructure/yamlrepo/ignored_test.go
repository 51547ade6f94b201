package yamlrepo

import (
	"strings"
	"testing"
)

func TestKeysTheReferenceIgnores(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"state when", "  a:\n    type: step\n    when: 'inputs.x == \"\"'\n    command: 'true'\n    on_success: done\n", "transitions: [{when:"},
		{"depends_on", "  a:\n    type: step\n    depends_on: [b]\n    command: 'true'\n    on_success: done\n", "type: parallel"},
		{"loop on a step", "  a:\n    type: step\n    loop: {over: '[1]'}\n    command: 'true'\n    on_success: done\n", "type: for_each"},
		{"agent nested", "  a:\n    type: agent\n    agent: {provider: claude}\n    provider: claude\n    prompt: hi\n    on_success: done\n", "awf states are flat"},
		{"post_hook", "  a:\n    type: step\n    post_hook: 'true'\n    command: 'true'\n    on_success: done\n", "hooks: {post:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: t\nstates:\n  initial: a\n" + tc.src + "  done: {type: terminal}\n"
			_, ds := Parse("t.yaml", []byte(src))
			if len(ds) != 1 || !strings.Contains(ds[0].Hint, tc.want) || !strings.Contains(ds[0].Message, "unknown key") {
				t.Fatalf("diagnostics %v, want one unknown key hinting %q", ds, tc.want)
			}
		})
	}
	src := "name: t\ninputs:\n  - name: email\n    type: string\n    pattern: '^a'\nstates:\n  initial: done\n  done: {type: terminal}\n"
	_, ds := Parse("t.yaml", []byte(src))
	if len(ds) != 1 || !strings.Contains(ds[0].Hint, "validation: {pattern:") || ds[0].Line != 5 {
		t.Fatalf("a rule beside type: %v", ds)
	}
	src = "name: t\nstates:\n  initial: a\n  a:\n    type: step\n    comand: 'true'\n    on_success: done\n  done: {type: terminal}\n"
	_, ds = Parse("t.yaml", []byte(src))
	found := false
	for _, d := range ds {
		found = found || strings.Contains(d.Message, `unknown key "comand"`) && d.Hint == "did you mean 'command'?"
	}
	if !found {
		t.Fatalf("other unknown keys keep their did-you-mean: %v", ds)
	}
}
