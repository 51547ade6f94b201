package shell

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestRunScript(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", t.TempDir())
	tests := []struct {
		name, script, wantOut string
		script2               bool
		wantCode              int
	}{
		{"no shebang runs through the shell", "echo $0 shell", "/bin/sh shell\n", true, 0},
		{"a shebang picks the interpreter", "#!/bin/sh\necho \"$0\" | grep -c awf-script-", "1\n", true, 0},
		{"the line's one argument is passed", "#!/bin/sh -e\nfalse\necho not reached", "", true, 1},
		{"env with -S", "#!/usr/bin/env -S sh -e\necho via env", "via env\n", true, 0},
		{"a missing interpreter is exit 127", "#!/nonexistent/interp\nx", "", true, 127},
		{"a shebang in a plain command is just a comment", "#!/nonexistent/interp\necho plain", "plain\n", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Runner{}.RunCommand(context.Background(), ports.CommandRequest{Command: tc.script, Script: tc.script2})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != tc.wantOut || res.ExitCode != tc.wantCode {
				t.Fatalf("got (%q, %q, %d), want (%q, %d)", res.Stdout, res.Stderr, res.ExitCode, tc.wantOut, tc.wantCode)
			}
			if tc.wantCode == 127 && !strings.Contains(res.Stderr, "interpreter not found") {
				t.Errorf("stderr = %q", res.Stderr)
			}
		})
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temp files left behind: %v", left)
	}
}
