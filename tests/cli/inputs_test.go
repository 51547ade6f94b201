package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// typedWorkflow declares an input of every type, each with the reference's validation rules.
const typedWorkflow = `name: typed
inputs:
  - name: env
    type: string
    required: true
    validation: {enum: [dev, staging, prod]}
  - name: version
    type: string
    default: v1.0.0
    validation: {pattern: '^v[0-9]+\.[0-9]+\.[0-9]+$'}
  - name: replicas
    type: integer
    default: 2
    validation: {min: 1, max: 10}
  - name: ratio
    type: number
    default: 0.5
    validation: {min: 0, max: 1}
  - name: files
    type: array
    default: [a.md]
    validation: {file_exists: true, file_extension: [.md]}
  - name: dry
    type: boolean
    default: false
states:
  initial: show
  show:
    type: command
    command: 'echo "env={{.inputs.env}} v={{.inputs.version}} r={{.inputs.replicas}} ratio={{.inputs.ratio}} files={{.inputs.files}} n={{len .inputs.files}} dry={{.inputs.dry}}"'
    transitions:
      - when: 'len(inputs.files) > 1 && inputs.ratio > 0.7 && "b.md" in inputs.files'
        goto: many
    on_success: done
  many:
    type: command
    command: echo many {{index .inputs.files 1}}
    on_success: done
  done:
    type: terminal
`

// brokenRules has a problem in every rule, and a template the run would refuse.
const brokenRules = `name: broken
inputs:
  - name: env
    type: string
    default: qa
    validation: {enum: [dev, prod], pattern: '([', min: 1}
  - name: n
    type: integer
    validation: {min: 5, max: 1, enum: [one]}
states:
  initial: a
  a:
    type: command
    command: echo {{upper .inputs.env}} {{if eq .inputs.n "3"}}x{{end}} {{states.a.output}}
    on_success: done
  done:
    type: terminal
`

func TestTypedInputs(t *testing.T) {
	dir := project(t, map[string]string{"typed.yaml": typedWorkflow, "broken.yaml": brokenRules})
	for _, f := range []string{"a.md", "b.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("#\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	tests := []struct {
		name string
		args []string
		code int
		want []string
		not  []string
	}{
		{"defaults typed and rendered", []string{"run", "typed", "-i", "env=prod"}, 0,
			[]string{`env=prod v=v1.0.0 r=2 ratio=0.5 files=["a.md"] n=1 dry=false`, "→ done"}, []string{"many"}},
		{"every type from -i, repeated array flags, a list in an expression", []string{"run", "typed", "-i", "env=dev", "-i", "files=a.md",
			"--input", "files=b.md", "-i", "ratio=0.9", "-i", "dry=yes", "-i", "replicas= 10 ", "-i", "version=v2.3.4"}, 0,
			[]string{`env=dev v=v2.3.4 r=10 ratio=0.9 files=["a.md","b.md"] n=2 dry=true`, "→ many", "many b.md"}, nil},
		{"JSON array", []string{"run", "typed", "-i", "env=dev", "-i", `files=["b.md", "a.md"]`}, 0, []string{`files=["b.md","a.md"] n=2`}, nil},
		{"every violation at once, nothing runs", []string{"run", "typed", "-i", "env=qa", "-i", "version=1.2", "-i", "replicas=11",
			"-i", "ratio=abc", "-i", "files=a.md,missing.md,c.txt", "-i", "dry=maybe"}, 1, []string{
			`typed.yaml:3:5: error: input "env": "qa" is not one of the allowed values [USER.INPUT.NOT_ALLOWED]`, "allowed: dev, staging, prod",
			`input "version": "1.2" does not match the pattern ^v[0-9]+\.[0-9]+\.[0-9]+$ [USER.INPUT.PATTERN_MISMATCH]`,
			`input "replicas": 11 is above the maximum 10 [USER.INPUT.OUT_OF_RANGE]`, "give a value from 1 to 10",
			`input "ratio" must be a number: "abc" is not a number [USER.INPUT.INVALID_VALUE]`,
			`input "files": item #3: "c.txt" does not end with an allowed extension [USER.INPUT.FILE_EXTENSION]`,
			`input "files": path "missing.md" (` + filepath.Join(dir, "missing.md") + `) does not exist [USER.INPUT.FILE_NOT_FOUND]`,
			`input "dry" must be a boolean: "maybe" is not a boolean [USER.INPUT.INVALID_VALUE]`,
		}, []string{"▶", "Running workflow"}},
		{"hostile values", []string{"run", "typed", "-i", "env=dev", "-i", "replicas=1e3", "-i", "ratio=NaN", "-i", "files=../../etc/passwd.md"}, 1, []string{
			`"1e3" is not a whole number`, `"NaN" is not a number`, `path "../../etc/passwd.md" (` + filepath.Join(dir, "../../etc/passwd.md") + `) does not exist`,
		}, []string{"▶"}},
		{"required input empty", []string{"run", "typed", "-i", "env="}, 1, []string{`required input "env" (string) is empty [USER.INPUT.MISSING]`}, []string{"▶"}},
		{"validate reports every rule problem with its position", []string{"validate", "broken"}, 1, []string{
			`broken.yaml:5:14: error: the default of input "env" breaks its own validation: "qa" is not one of the allowed values [USER.INPUT.INVALID_DEFAULT]`,
			`broken.yaml:6:46: error: the pattern of input "env" does not compile`,
			`broken.yaml:6:57: error: input "env" is a string; validation rule min applies to integer, number inputs only [USER.INPUT.INVALID_RULE]`,
			`broken.yaml:9:31: error: input "n" has min 5 above max 1, so no value could pass [USER.INPUT.INVALID_RULE]`,
			`broken.yaml:9:41: error: enum value #1 of input "n" is "one", not an integer [USER.INPUT.INVALID_RULE]`,
			`command of state "a": "upper" is neither a function nor a namespace of the data [USER.TEMPLATE.UNKNOWN_FUNCTION]`,
			`command of state "a": eq compares integer with string, which Go templates refuse [USER.TEMPLATE.TYPE_MISMATCH]`,
		}, []string{"states.a.output"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := awf(t, dir, env, tc.args...)
			all := r.stdout + r.stderr
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(all, w) {
					t.Errorf("output has %q:\n%s", w, all)
				}
			}
		})
	}
	runs, _ := os.ReadDir(filepath.Join(dir, ".awf", "runs"))
	if len(runs) != 3 {
		t.Errorf("%d run directories, want 3: refused inputs must leave nothing behind", len(runs))
	}
}
