package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"gopkg.in/yaml.v3"
)

// compileSchema resolves a JSON Schema document.
func compileSchema(t *testing.T, name string, data []byte) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	return rs
}

// docSchema is docs/reference/schemas/<name>, resolved.
func docSchema(t *testing.T, name string) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "reference", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	return compileSchema(t, name, data)
}

// instance is a JSON text as the validator reads it.
func instance(t *testing.T, what, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, text)
	}
	return v
}

// TestJSONOutputsMatchTheirSchemas runs each command that prints JSON, in a project with a
// workflow, a finished run and an activity record, and validates what it printed against its
// schema in docs/reference/schemas; each document but the run's carries schema_version 1, and
// run statuses are the same words in run, status and history.
func TestJSONOutputsMatchTheirSchemas(t *testing.T) {
	hello, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "workflows", "hello.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{"hello.yaml": string(hello), "bad.yaml": "name: bad\nstates:\n  initial: a\n  a: {type: command, command: 'true', colour: red, on_success: done}\n  done: {type: terminal}\n"})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	r := awf(t, dir, env, "run", "hello", "-i", "name=ada", "--format", "json")
	run := instance(t, "run", r.stdout).(map[string]any)
	id, _ := run["run_id"].(string)
	if r.code != 0 || id == "" || run["status"] != "success" {
		t.Fatalf("run: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, env, "call", "tool-read", "Glob", "--args", `{"pattern":"*.md"}`); r.code != 0 {
		t.Fatalf("call: %d %s", r.code, r.stderr)
	}
	cases := []struct {
		schema string
		args   []string
		code   int
	}{
		{"run.json", []string{"run", "hello", "-i", "name=bob", "--format", "json"}, 0},
		{"plan.json", []string{"run", "hello", "-i", "name=bob", "--dry-run", "--format", "json"}, 0},
		{"validate.json", []string{"validate", "hello", "--format", "json"}, 0},
		{"validate.json", []string{"validate", "bad", "--format", "json"}, 1},
		{"status.json", []string{"status", id, "--format", "json"}, 0},
		{"history.json", []string{"history", "--format", "json"}, 0},
		{"history.json", []string{"history", "--status", "succeeded", "--format", "json"}, 0},
		{"list.json", []string{"list", "--format", "json"}, 0},
		{"plugins-list.json", []string{"plugins", "list", "--no-start", "--format", "json"}, 0},
		{"plugins-scan.json", []string{"plugins", "scan", "--format", "json"}, 0},
		{"error.json", []string{"error", "USER.RUN", "--format", "json"}, 0},
		{"version.json", []string{"version", "--format", "json"}, 0},
		{"activity-record.json", []string{"activity", "list", "--format", "json"}, 0},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			r := awf(t, dir, env, tc.args...)
			if r.code != tc.code {
				t.Fatalf("%v: exit %d, want %d\n%s", tc.args, r.code, tc.code, r.stderr)
			}
			doc := instance(t, tc.schema, r.stdout)
			rs := docSchema(t, tc.schema)
			docs := []any{doc}
			if tc.schema == "activity-record.json" { // a list of records
				docs, _ = doc.([]any)
				if len(docs) == 0 {
					t.Fatalf("no activity records: %s", r.stdout)
				}
			}
			for _, d := range docs {
				if err := rs.Validate(d); err != nil {
					t.Fatalf("%v does not match %s: %v\n%s", tc.args, tc.schema, err, r.stdout)
				}
				if m, ok := d.(map[string]any); ok && tc.schema != "run.json" && m["schema_version"] != 1.0 {
					t.Fatalf("%v: schema_version %v", tc.args, m["schema_version"])
				}
			}
		})
	}
	// The same run, in one vocabulary: run said success; status and history say it too.
	st := instance(t, "status", awf(t, dir, env, "status", id, "--format", "json").stdout).(map[string]any)
	if st["status"] != run["status"] {
		t.Fatalf("status says %v, run said %v", st["status"], run["status"])
	}
	// The schemas can fail: an older release's word is not a status.
	st["status"] = "succeeded"
	if err := docSchema(t, "status.json").Validate(st); err == nil {
		t.Fatal("status.json accepted status succeeded")
	}
}

// TestActivityFormatFlag: activity list takes --format like every other command; -o still
// works, with a warning naming --format.
func TestActivityFormatFlag(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	if r := awf(t, dir, env, "activity", "list", "--format", "json"); r.code != 0 || strings.TrimSpace(r.stdout) != "[]" || r.stderr != "" {
		t.Fatalf("--format json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, env, "activity", "list", "-o", "json"); r.code != 0 || strings.TrimSpace(r.stdout) != "[]" || !strings.Contains(r.stderr, "use --format") {
		t.Fatalf("-o json: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// workflowSchemaOf is what `awf schema workflow` prints, resolved.
func workflowSchemaOf(t *testing.T) (*jsonschema.Resolved, map[string]any) {
	t.Helper()
	r := awf(t, t.TempDir(), nil, "schema", "workflow")
	if r.code != 0 {
		t.Fatalf("schema workflow: %d %s", r.code, r.stderr)
	}
	var raw map[string]any
	_ = json.Unmarshal([]byte(r.stdout), &raw)
	return compileSchema(t, "workflow", []byte(r.stdout)), raw
}

// yamlInstance reads a YAML file as the JSON value a schema validates.
func yamlInstance(t *testing.T, file string) (any, bool) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if yaml.Unmarshal(data, &v) != nil {
		return nil, false
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	_ = json.Unmarshal(js, &out)
	return out, true
}

// TestWorkflowSchemaAcceptsWhatValidateAccepts: every workflow under examples/ and the loader's
// valid fixtures validates against `awf schema workflow`; fixtures awf refuses for a key, a
// type or a shape are refused by the schema too.
func TestWorkflowSchemaAcceptsWhatValidateAccepts(t *testing.T) {
	rs, _ := workflowSchemaOf(t)
	root := repoRoot(t)
	var good []string
	_ = filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			if data, _ := os.ReadFile(p); regexp.MustCompile(`(?m)^states:`).Match(data) {
				good = append(good, p)
			}
		}
		return nil
	})
	valid, _ := filepath.Glob(filepath.Join(root, "internal", "infrastructure", "yamlrepo", "testdata", "valid", "*.yaml"))
	good = append(good, valid...)
	// The reference awf's fixtures are not in this repository: AWF_REF_FIXTURES names its
	// tests/fixtures/workflows (as make refcompare's FIXTURES does) to check those awf accepts.
	if ref := os.Getenv("AWF_REF_FIXTURES"); ref != "" {
		fixtures, _ := filepath.Glob(filepath.Join(ref, "*.yaml"))
		good = append(good, fixtures...)
	} else {
		t.Log("AWF_REF_FIXTURES is not set: the reference's fixtures are not checked")
	}
	if len(good) < 6 {
		t.Fatalf("only %d workflows found: %v", len(good), good)
	}
	for _, f := range good {
		if r := awf(t, filepath.Dir(f), []string{"HOME=" + t.TempDir()}, "validate", f); r.code != 0 {
			continue // a file awf itself refuses says nothing about the schema
		}
		v, ok := yamlInstance(t, f)
		if !ok {
			t.Fatalf("%s is not YAML", f)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: awf validate accepts it, the schema does not: %v", f, err)
		}
	}
	for _, bad := range []string{"key_not_allowed", "missing_state_type", "invalid_status", "missing_name", "no_states", "not_a_mapping"} {
		v, ok := yamlInstance(t, filepath.Join(root, "internal", "infrastructure", "yamlrepo", "testdata", "invalid", bad+".yaml"))
		if !ok {
			continue
		}
		if err := rs.Validate(v); err == nil {
			t.Errorf("%s: awf validate refuses it, the schema accepts it", bad)
		}
	}
}

// TestWorkflowSchemaKeysAreValidatesKeys: the keys the schema allows at the top level and in
// each state type are exactly those awf validate accepts there, so the schema cannot drift from
// the loader: the top level's from the hint for an unknown key, each type's by giving a state
// of that type every state key and taking away those validate says the type does not take.
func TestWorkflowSchemaKeysAreValidatesKeys(t *testing.T) {
	_, raw := workflowSchemaOf(t)
	dir := t.TempDir()
	validate := func(body string) string {
		t.Helper()
		f := filepath.Join(dir, "w.yaml")
		_ = os.WriteFile(f, []byte(body), 0o644)
		return awf(t, dir, nil, "validate", f, "--format", "json").stdout
	}
	listed := func(out string) []string {
		t.Helper()
		m := regexp.MustCompile(`valid keys [^:]*: ([^"]*)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no list of valid keys in:\n%s", out)
		}
		keys := strings.Split(m[1], ", ")
		sort.Strings(keys)
		return keys
	}
	propsOf := func(node any) []string {
		var out []string
		for k := range node.(map[string]any)["properties"].(map[string]any) {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	if got, want := propsOf(raw), listed(validate("name: w\nzzqq: 1\nstates:\n  initial: d\n  d: {type: terminal}\n")); !slices.Equal(got, want) {
		t.Errorf("top level: schema %v, awf validate %v", got, want)
	}
	all := listed(validate("name: w\nstates:\n  initial: s\n  s: {type: command, command: 'true', zzqq: 1, on_success: d}\n  d: {type: terminal}\n"))
	values := map[string]string{"body": "[d]", "parallel": "[d]", "transitions": "[]", "retry": "{}", "hooks": "{}", "capture": "{}", "env": "{}",
		"options": "{}", "inputs": "{}", "outputs": "{}", "conversation": "{}", "mcp_proxy": "{}", "timeout": "1s", "max_concurrent": "1",
		"max_iterations": "1", "continue_on_error": "true", "items": "'[]'", "status": "success", "on_success": "d", "on_failure": "d",
		"on_complete": "d", "on_exhausted": "d"}
	refused := regexp.MustCompile(`key \\"([a-z_]+)\\" is not valid for|"message": "([a-z_]+) is only valid on|must not have ([a-z_]+):`)
	defs := raw["$defs"].(map[string]any)
	for typ, def := range defs {
		if typ == "state" {
			continue
		}
		var b strings.Builder
		b.WriteString("name: w\nstates:\n  initial: s\n  s:\n    type: " + typ + "\n")
		for _, k := range all {
			if k != "type" {
				v := values[k]
				if v == "" {
					v = "x"
				}
				b.WriteString("    " + k + ": " + v + "\n")
			}
		}
		b.WriteString("  d: {type: terminal}\n")
		out := validate(b.String())
		allowed := slices.Clone(all)
		for _, m := range refused.FindAllStringSubmatch(out, -1) {
			k := m[1] + m[2] + m[3]
			allowed = slices.DeleteFunc(allowed, func(s string) bool { return s == k })
		}
		if got := propsOf(def); !slices.Equal(got, allowed) {
			t.Errorf("state type %s: schema %v, awf validate %v", typ, got, allowed)
		}
	}
	if len(defs) < 9 {
		t.Fatalf("only %d state types in the schema", len(defs)-1)
	}
}
