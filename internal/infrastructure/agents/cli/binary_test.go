package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestBinaryResolve(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	step := filepath.Join(root, "step")
	for _, d := range []string{bin, step, filepath.Join(step, "tools")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(p string, mode os.FileMode) string {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inPath := exe(filepath.Join(bin, "claude"), 0o755)
	other := exe(filepath.Join(bin, "claude-nightly"), 0o755)
	local := exe(filepath.Join(step, "tools", "claude"), 0o755)
	plain := exe(filepath.Join(bin, "plain"), 0o644)
	b := Binary{Provider: "claude", Name: "claude", Install: "npm install -g @anthropic-ai/claude-code"}
	if b.EnvVar() != "AWF_CLAUDE_BIN" {
		t.Fatalf("EnvVar = %s", b.EnvVar())
	}
	tests := []struct {
		name     string
		option   string
		env      []string
		want     string
		wantCode string
		wantHint string
	}{
		{name: "PATH lookup of the default name", env: []string{"PATH=/nonexistent:" + bin}, want: inPath},
		{name: "option, path relative to the step dir", option: "tools/claude", env: []string{"PATH=" + bin}, want: local},
		{name: "option, a name in PATH", option: "claude-nightly", env: []string{"PATH=" + bin}, want: other},
		{name: "option beats the variable", option: local, env: []string{"AWF_CLAUDE_BIN=" + other}, want: local},
		{name: "variable beats PATH", env: []string{"PATH=" + bin, "AWF_CLAUDE_BIN=" + other}, want: other},
		{name: "not installed", env: []string{"PATH=" + step}, wantCode: fault.ExecutionAgentCLINotFound,
			wantHint: "install it with `npm install -g @anthropic-ai/claude-code`, or set options.binary or AWF_CLAUDE_BIN to its path"},
		{name: "option names a missing file", option: "tools/missing", wantCode: fault.ExecutionAgentCLINotFound, wantHint: "fix the path"},
		{name: "option names a non-executable file", option: plain, wantCode: fault.ExecutionAgentCLINotFound},
		{name: "variable names a missing name", env: []string{"PATH=" + bin, "AWF_CLAUDE_BIN=nope"}, wantCode: fault.ExecutionAgentCLINotFound, wantHint: "absolute path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := b.Resolve(tc.option, step, tc.env)
			if tc.wantCode != "" {
				if fault.CodeOf(err) != tc.wantCode {
					t.Fatalf("want %s, got %q, %v", tc.wantCode, got, err)
				}
				if !strings.Contains(err.Error(), tc.wantHint) {
					t.Errorf("error %q lacks hint %q", err, tc.wantHint)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
