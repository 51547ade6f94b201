package shell

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// TestValuesBesideTheCode: under dash and bash as the shell, and a #!/bin/bash script, a
// command's references read the values set for it; inherited AWF_V_ and AWF_INPUT_ variables
// are dropped first, so a reference never reads a value an outer run set.
func TestValuesBesideTheCode(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	t.Setenv("AWF_V_2", "inherited")
	t.Setenv("AWF_INPUT_X", "inherited")
	hostile := "$(touch PWNED)\n`touch PWNED`; touch PWNED"
	tests := []struct {
		name, shell, code string
		script            bool
		want              string
	}{
		{"dash", "/bin/dash", `printf '%s|%s|%s' ${AWF_V_1:+"${AWF_V_1}"} "${AWF_V_2-unset}" "${AWF_INPUT_X-unset}"`, false, hostile + "|unset|unset"},
		{"bash", "/bin/bash", `printf '%s|%s' "${BASH_VERSINFO[0]}" ${AWF_V_1:+"${AWF_V_1}"}`, false, "5|" + hostile},
		{"bash script", "", "#!/bin/bash\nprintf '%s|%s' \"${BASH_VERSINFO[0]}\" 'a'\"${AWF_V_1}\"'b'", true, "5|a" + hostile + "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ports.CommandRequest{Command: tc.code, Shell: tc.shell, Script: tc.script, Dir: dir,
				Env: append(os.Environ(), "PATH=/usr/bin:/bin"), Values: []string{"AWF_V_1=" + hostile}}
			res, err := Runner{}.RunCommand(context.Background(), req)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("%v, %+v", err, res)
			}
			if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
				t.Fatal("a value ran as code")
			}
			if res.Stdout != tc.want {
				t.Errorf("stdout %q, want %q", res.Stdout, tc.want)
			}
		})
	}
}

// TestInterpreterScriptReadsInputs: a #!/usr/bin/env python3 script reads its inputs from the
// environment, and a value in it is never code.
func TestInterpreterScriptReadsInputs(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no python3 here")
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	script := "#!/usr/bin/env python3\nimport os\nprint(f\"got {os.environ['AWF_INPUT_WHO']}\")\n"
	v := `{__import__('os').system('touch PWNED')}`
	res, err := Runner{}.RunCommand(context.Background(), ports.CommandRequest{Command: script, Script: true, Dir: dir,
		Env: []string{"PATH=/usr/bin:/bin"}, Values: []string{"AWF_INPUT_WHO=" + v}})
	if err != nil || res.Stdout != "got "+v+"\n" {
		t.Fatalf("%v, %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Fatal("a value ran as code")
	}
}
