package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

func TestParseManifestValid(t *testing.T) {
	src := `# plugins of this project
plugins:
  echo:
    command: bin/plugins/echo
  notes:
    command: /opt/notes
    args: [--verbose, "2"]
    env:
      LOG_LEVEL: debug
      RETRIES: 3
    config:
      dir: .awf/notes
      limits: {max: 10, ratio: 0.5, on: true, tags: [a, b], none: ~}
  old:
    command: old
    disabled: true
`
	m, err := ParseManifest("p.yaml", []byte(src))
	if err != nil {
		t.Fatalf("ParseManifest: %v", err)
	}
	if got := strings.Join(m.Names(), ","); got != "echo,notes,old" {
		t.Fatalf("names = %s, want file order echo,notes,old", got)
	}
	echo, _ := m.Lookup("echo")
	if echo.Command != "bin/plugins/echo" || string(echo.Config) != "{}" || echo.Disabled || echo.Pos != (fault.Position{File: "p.yaml", Line: 3, Column: 3}) {
		t.Errorf("echo = %+v", echo)
	}
	if echo.CommandPos != (fault.Position{File: "p.yaml", Line: 4, Column: 14}) {
		t.Errorf("echo command position = %v", echo.CommandPos)
	}
	notes, _ := m.Lookup("notes")
	if strings.Join(notes.Args, " ") != "--verbose 2" || strings.Join(notes.Env, " ") != "LOG_LEVEL=debug RETRIES=3" {
		t.Errorf("notes args/env = %q %q", notes.Args, notes.Env)
	}
	var cfg map[string]any
	if err := json.Unmarshal(notes.Config, &cfg); err != nil {
		t.Fatalf("config is not JSON: %s", notes.Config)
	}
	want := `{"dir":".awf/notes","limits":{"max":10,"none":null,"on":true,"ratio":0.5,"tags":["a","b"]}}`
	if b, _ := json.Marshal(cfg); string(b) != want {
		t.Errorf("config = %s, want %s", b, want)
	}
	if old, _ := m.Lookup("old"); !old.Disabled {
		t.Error("disabled: true was not read")
	}
	if _, ok := m.Lookup("nope"); ok {
		t.Error("Lookup found an undeclared plugin")
	}
}

func TestParseManifestEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "plugins:\n", "plugins: {}\n"} {
		m, err := ParseManifest("p.yaml", []byte(src))
		if err != nil || len(m.Specs) != 0 {
			t.Errorf("ParseManifest(%q) = %v, %v; want no plugins", src, m, err)
		}
	}
}

type diag struct {
	code      string
	line, col int
	hint      string
}

func (d diag) String() string { return fmt.Sprintf("%s@%d:%d", d.code, d.line, d.col) }

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []diag
	}{
		{"unknown top key", "plugin:\n  echo: {command: x}\n", []diag{{fault.UserPluginsUnknownKey, 1, 1, "did you mean 'plugins'?"}}},
		{"unknown plugin key", "plugins:\n  echo:\n    command: x\n    comand: y\n", []diag{{fault.UserPluginsUnknownKey, 4, 5, "did you mean 'command'?"}}},
		{"unknown key far from any", "plugins:\n  echo:\n    command: x\n    zzzzzz: 1\n", []diag{{fault.UserPluginsUnknownKey, 4, 5, "valid keys"}}},
		{"missing command", "plugins:\n  echo:\n    args: [a]\n", []diag{{fault.UserPluginsMissingCommand, 2, 3, "add `command"}}},
		{"empty command", "plugins:\n  echo:\n    command: \"\"\n", []diag{{fault.UserPluginsMissingCommand, 3, 14, ""}}},
		{"plugin not a mapping", "plugins:\n  echo: bin/echo\n", []diag{{fault.UserPluginsInvalidValue, 2, 9, "command:"}}},
		{"plugin null", "plugins:\n  echo:\n", []diag{{fault.UserPluginsInvalidValue, 2, 8, ""}}},
		{"plugins not a mapping", "plugins: [echo]\n", []diag{{fault.UserPluginsInvalidValue, 1, 10, ""}}},
		{"bad name", "plugins:\n  \"my plugin\": {command: x}\n", []diag{{fault.UserPluginsInvalidName, 2, 3, "letters"}}},
		{"args not a list", "plugins:\n  echo: {command: x, args: -v}\n", []diag{{fault.UserPluginsInvalidValue, 2, 28, ""}}},
		{"env not a mapping", "plugins:\n  echo: {command: x, env: [A]}\n", []diag{{fault.UserPluginsInvalidValue, 2, 27, ""}}},
		{"env value a list", "plugins:\n  echo:\n    command: x\n    env: {A: [1]}\n", []diag{{fault.UserPluginsInvalidValue, 4, 14, ""}}},
		{"config not a mapping", "plugins:\n  echo: {command: x, config: dir}\n", []diag{{fault.UserPluginsInvalidValue, 2, 30, "config:"}}},
		{"disabled not a bool", "plugins:\n  echo: {command: x, disabled: \"yes\"}\n", []diag{{fault.UserPluginsInvalidValue, 2, 32, "true or false"}}},
		{"duplicate plugin", "plugins:\n  echo: {command: x}\n  echo: {command: y}\n", []diag{{fault.UserYAMLDuplicateKey, 3, 3, "line 2"}}},
		{"syntax", "plugins:\n  echo: {command: x\n", []diag{{fault.UserYAMLSyntax, 1, 1, ""}}},
		{"syntax with line", "plugins:\n  echo: x: y\n", []diag{{fault.UserYAMLSyntax, 2, 1, "indentation"}}},
		{"tab", "plugins:\n\techo: {command: x}\n", []diag{{fault.UserYAMLSyntax, 2, 1, ""}}},
		// A merge key is expanded, as in a workflow: echo has its command; only "base" is wrong.
		{"merge key", "base: &b {command: x}\nplugins:\n  echo:\n    <<: *b\n", []diag{{fault.UserPluginsUnknownKey, 1, 1, ""}}},
		{"merge of a list of text", "plugins:\n  echo:\n    <<: [x]\n", []diag{{fault.UserPluginsInvalidValue, 3, 10, ""}, {fault.UserPluginsMissingCommand, 2, 3, ""}}},
		{"everything at once", "plugins:\n  a: {comand: x}\n  b: {command: y, disabled: 1}\n", []diag{
			{fault.UserPluginsMissingCommand, 2, 3, ""}, {fault.UserPluginsUnknownKey, 2, 7, ""}, {fault.UserPluginsInvalidValue, 3, 29, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseManifest("p.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("ParseManifest accepted an invalid file")
			}
			if fault.CodeOf(err) != fault.UserPluginsInvalid || fault.ExitCode(err) != fault.ExitUser {
				t.Errorf("error code = %s (exit %d), want %s (exit 1)", fault.CodeOf(err), fault.ExitCode(err), fault.UserPluginsInvalid)
			}
			var de ports.DiagnosticsError
			if !errors.As(err, &de) {
				t.Fatalf("error %v carries no diagnostics", err)
			}
			ds := de.Diagnostics()
			var got []string
			for _, d := range ds {
				got = append(got, diag{d.Code, d.Line, d.Column, ""}.String())
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, w.String())
			}
			sortStrings(got)
			sortStrings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("diagnostics = %v, want %v\n%v", got, want, err)
			}
			for _, w := range tt.want {
				for _, d := range ds {
					if d.Code == w.code && d.Line == w.line && !strings.Contains(d.Hint, w.hint) {
						t.Errorf("%s hint %q does not contain %q", w, d.Hint, w.hint)
					}
					if d.File != "p.yaml" {
						t.Errorf("diagnostic %v has file %q", d, d.File)
					}
				}
			}
			if !strings.Contains(err.Error(), "p.yaml:") {
				t.Errorf("error text lacks file:line:col: %v", err)
			}
		})
	}
}

func TestParseManifestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("plugins:\n  p:\n    command: x\n    config: {v: *a8}\n")
	_, err := ParseManifest("p.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expand") {
		t.Fatalf("alias bomb = %v, want an expansion error", err)
	}
}

func TestLoadManifestFile(t *testing.T) {
	dir := t.TempDir()
	m, err := LoadManifest(filepath.Join(dir, "missing.yaml"))
	if err != nil || m.Exists || len(m.Specs) != 0 {
		t.Fatalf("missing file = %+v, %v; want an empty manifest", m, err)
	}
	path := filepath.Join(dir, "plugins.yaml")
	if err := os.WriteFile(path, []byte("plugins:\n  e: {command: x}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err = LoadManifest(path)
	if err != nil || !m.Exists || m.File != path || len(m.Specs) != 1 || m.Specs[0].Pos.File != path {
		t.Fatalf("LoadManifest = %+v, %v", m, err)
	}
	if _, err := LoadManifest(dir); fault.CodeOf(err) != fault.UserPluginsUnreadable {
		t.Errorf("LoadManifest(dir) = %v, want %s", err, fault.UserPluginsUnreadable)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, maxManifestSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadManifest(big); fault.CodeOf(err) != fault.UserPluginsUnreadable {
		t.Errorf("LoadManifest(big) = %v, want %s", err, fault.UserPluginsUnreadable)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestProjectManifest guards the project's own .awf/plugins.yaml, which examples and the README
// rely on: it parses, and declares the example plugins at their `make plugins` paths.
func TestProjectManifest(t *testing.T) {
	m, err := LoadManifest(filepath.Join(plugintest.RepoRoot(t), ".awf", "plugins.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"echo": "bin/plugins/echo", "notes": "bin/plugins/notes"}
	for name, cmd := range want {
		s, ok := m.Lookup(name)
		if !ok || s.Command != cmd || s.Disabled {
			t.Errorf("plugin %s = %+v, want command %s", name, s, cmd)
		}
	}
	if notes, _ := m.Lookup("notes"); !strings.Contains(string(notes.Config), `"dir"`) {
		t.Errorf("notes has no dir in its config: %s", notes.Config)
	}
}
