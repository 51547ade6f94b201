package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// breaksWorkflow holds each place where the escaping lexer and the shell disagreed and a value
// ran as code; SHELL is the workflow's `shell:`.
const breaksWorkflow = `name: breaks
shell: SHELL
inputs:
  - {name: first, type: string}
  - {name: last, type: string}
  - {name: list, type: array}
  - {name: repo, type: string, default: ""}
  - {name: num, type: string}
  - {name: v, type: string}
hooks:
  workflow_end:
    - command: printf '%s' "{{.inputs.v}}" {{.inputs.v}} > out-hook.txt
states:
  initial: write
  write:
    type: command
    command: |
      cat > out-doc.txt <<EOF
      {{.inputs.first}}{{.inputs.last}}
      EOF
      cat > out-range.txt <<EOF
      {{range .inputs.list}}{{.}}{{end}}
      EOF
      echo issue {{.inputs.repo}}#{{.inputs.num}} > out-hash.txt
      echo "$(case x in x) echo {{.inputs.v}};; esac)" > out-case.txt
      echo $(echo a)#{{.inputs.v}} > out-after.txt
      echo ` + "`echo a # c`" + ` {{.inputs.v}} > out-tick.txt
    on_success: empty
  empty:
    type: command
    command: printf ''
    on_success: hash
  hash:
    type: command
    command: echo {{.states.empty.Output}}#{{.inputs.num}} > out-empty.txt
    on_success: script
  script:
    type: command
    script_file: s.sh
    on_success: py
  py:
    type: command
    script_file: s.py
    on_success: done
  done:
    type: terminal
`

const bashScript = "#!/bin/bash\nprintf '%s|%s' \"${BASH_VERSINFO[0]}\" '{{.inputs.v}}' > out-script.txt\n"

const pyScript = "#!/usr/bin/env python3\nimport os\nopen('out-py.txt', 'w').write(os.environ['AWF_INPUT_V'] + '|' + os.environ['AWF_INPUT_NUM'])\n"

// TestLexerBreaksRunNothing: each break, under dash and under bash as the shell, with a
// #!/bin/bash script_file and a python3 one: the marker is never made and every value arrives
// as it was given.
func TestLexerBreaksRunNothing(t *testing.T) {
	const run = "\ntouch PWNED\n"
	v := `'; touch PWNED; ' $(touch PWNED) {__import__('os').system('touch PWNED')}`
	for _, sh := range []string{"/bin/dash", "/bin/bash"} {
		t.Run(sh, func(t *testing.T) {
			dir := project(t, map[string]string{"breaks.yaml": strings.Replace(breaksWorkflow, "SHELL", sh, 1),
				"s.sh": bashScript, "s.py": pyScript})
			env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
			r := awf(t, dir, env, "run", "breaks", "-i", "first=EO", "-i", "last=F"+run, "-i", `list=["EO","F\ntouch PWNED\n"]`,
				"-i", "num=1"+run, "-i", "v="+v)
			if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
				t.Fatalf("a value ran as code:\n%s%s", r.stdout, r.stderr)
			}
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			for file, want := range map[string]string{
				"out-doc.txt": "EOF" + run + "\n", "out-range.txt": "EOF" + run + "\n", "out-hash.txt": "issue #1" + run + "\n",
				"out-case.txt": v + "\n", "out-after.txt": "a#" + v + "\n", "out-tick.txt": "a " + v + "\n",
				"out-empty.txt": "#1" + run + "\n", "out-script.txt": "5|" + v, "out-py.txt": v + "|1" + run, "out-hook.txt": v + v,
			} {
				b, err := os.ReadFile(filepath.Join(dir, file))
				if err != nil || string(b) != want {
					t.Errorf("%s = %q (%v), want %q", file, b, err, want)
				}
			}
		})
	}
}

// TestValidateRefusesCodePlaces: awf validate names each place where a shell or interpreter
// would read a value as code, with the fix, and a templated python script_file.
func TestValidateRefusesCodePlaces(t *testing.T) {
	dir := project(t, map[string]string{"code.yaml": `name: code
shell: /bin/bash
env: [AWF_V_1]
inputs:
  - {name: x, type: string}
states:
  initial: a
  a:
    type: command
    command: |
      (( {{.inputs.x}} > 3 )) && echo big
      sh -c 'echo {{.inputs.x}}'
      eval "echo {{.inputs.x}}"
      echo $'{{.inputs.x}}'
      [[ {{.inputs.x}} -eq 1 ]]
    on_success: b
  b:
    type: command
    shell: python3
    script_file: t.py
    on_success: done
  done:
    type: terminal
`, "t.py": "#!/usr/bin/env python3\nprint('{{.inputs.x}}')\n"})
	r := awf(t, dir, nil, "validate", "code")
	out := r.stdout + r.stderr
	if r.code != 1 || strings.Count(out, "USER.TEMPLATE.SHELL_PLACE") != 5 || !contains(out,
		"code.yaml:10:14", "line 1, column 4", "arithmetic", `sh -c 'echo "$1"' sh`, "USER.TEMPLATE.INTERPRETER", "AWF_INPUT_NAME",
		"USER.WORKFLOW.SHELL", `"python3"`, `env lists "AWF_V_1"`) {
		t.Fatalf("exit %d:\n%s", r.code, out)
	}
}

// TestTemplatedCountIsData: a templated max_iterations takes a number as data; expression text
// in the value (which would read another variable) fails the loop instead of being evaluated.
func TestTemplatedCountIsData(t *testing.T) {
	dir := project(t, map[string]string{"count.yaml": `name: count
inputs:
  - {name: n, type: string}
states:
  initial: each
  each:
    type: for_each
    items: '["a", "b", "c"]'
    max_iterations: "{{.inputs.n}}"
    body: [show]
    on_complete: done
    on_failure: failed
  show: {type: command, command: 'echo {{.loop.Item}}', on_success: each}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "AWF_PROBE_N=2"}
	if r := awf(t, dir, env, "run", "count", "-i", "n=2"); r.code != 0 || !strings.Contains(r.stdout, "completed 2 iterations") {
		t.Fatalf("n=2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := awf(t, dir, env, "run", "count", "-i", "n=int(env.AWF_PROBE_N)")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "is not a number") {
		t.Fatalf("expression text: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
