package shellsafe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"
)

// render parses tmpl as a shell-bound template, prepares it and fills {{.v}} with v.
func render(tmpl, v string) (Command, []RawUse, error) {
	return renderValues(tmpl, map[string]any{"v": v, "n": 41, "l": []string{"x y"}})
}

// renderValues renders tmpl with data.
func renderValues(tmpl string, data map[string]any) (Command, []RawUse, error) {
	funcs := Funcs()
	funcs["quote"] = func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	t, err := template.New("t").Funcs(funcs).Option("missingkey=error").Parse(tmpl)
	if err != nil {
		return Command{}, nil, err
	}
	b, raws, err := Prepare(t, tmpl)
	if err != nil {
		return Command{}, nil, err
	}
	cmd, err := b.Execute(t, data)
	return cmd, raws, err
}

// sandbox is a private directory with its own HOME and TMPDIR, where the scripts run.
type sandbox struct{ dir string }

func newSandbox(t testing.TB) sandbox {
	t.Helper()
	return sandbox{dir: t.TempDir()}
}

// run executes a rendered command with shell in the sandbox and returns its stdout; a marker
// file named PWNED in the sandbox means a value ran as code.
func (s sandbox) run(t testing.TB, shell string, c Command) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	script := c.Text
	cmd := exec.CommandContext(ctx, shell, "-c", script)
	cmd.Dir = s.dir
	cmd.Env = append([]string{"HOME=" + s.dir, "TMPDIR=" + s.dir, "PATH=/usr/bin:/bin", "IFS= \t\n"}, c.Env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	if _, err := os.Stat(filepath.Join(s.dir, "PWNED")); err == nil {
		_ = os.Remove(filepath.Join(s.dir, "PWNED"))
		t.Fatalf("%s ran a value as code:\n%s\nstderr: %s", shell, script, errb.String())
	}
	return out.String()
}

// testShells are the distinct shells of this machine (/bin/sh is often dash itself): dash and
// bash, each of which is /bin/sh somewhere.
func testShells(t testing.TB) []string {
	var out []string
	seen := map[string]bool{}
	for _, sh := range []string{"/bin/dash", "/bin/bash", "/bin/sh"} {
		real, err := filepath.EvalSymlinks(sh)
		if err == nil && !seen[real] {
			seen[real] = true
			out = append(out, sh)
		}
	}
	if len(out) == 0 {
		t.Fatal("no shell to test with")
	}
	return out
}

// hostile are values crafted to break out of each context.
var hostile = []string{
	`"; touch PWNED #`, `$(touch PWNED)`, "`touch PWNED`", `'; touch PWNED; '`, "\ntouch PWNED",
	"x\n touch PWNED", `${IFS}touch${IFS}PWNED`, `\`, `\'`, `\"`, `'`, `"`, `}`, `a}b$(touch PWNED)`,
	`a}b"$(touch PWNED)"`, "*", "~", "-n", "A=b", " lead", "trail ", "a\tb", "héllo ✓", `$HOME`,
	`!`, "#x", "%s", "a\\\nb", "\r\ntouch PWNED", "$((1+1))", `$'\x41'`, "EOF", "x\nEOF\ntouch PWNED",
	"))\ntouch PWNED", "`", "$", "a b  c", "x\n\tEOF\ntouch PWNED", "O", "\tEOF", "plain-value_1.2", "", "\nE\xe7", "O\xe7", "\nEO\xe7F",
}

// contexts are templates placing {{.v}} in each shell place a value can take; want is what the
// script prints for value v.
var contexts = []struct {
	name string
	tmpl string
	want func(v string) string
}{
	{"word", `printf '%s' {{.v}}`, id},
	{"word with text around", `printf '%s' pre{{.v}}post`, func(v string) string { return "pre" + v + "post" }},
	{"assignment", `X={{.v}}; printf '%s' "$X"`, id},
	{"single quotes", `printf '%s' '{{.v}}'`, id},
	{"double quotes", `printf '%s' "{{.v}}"`, id},
	{"double-quoted default", `printf '%s' "${UNSET_AWF:-{{.v}}}"`, id},
	{"default", `printf '%s' ${UNSET_AWF:-{{.v}}}`, id},
	{"command substitution", `printf '%s' "$(printf '%s' {{.v}})"`, trimNL},
	{"double quotes in substitution", `printf '%s' "$(printf '%s' "{{.v}}")"`, trimNL},
	{"backticks", "printf '%s' \"`printf '%s' {{.v}}`\"", trimNL},
	{"double quotes in backticks", "printf '%s' \"`printf '%s' \"{{.v}}\"`\"", trimNL},
	{"here-document", "cat <<EOF\n{{.v}}\nEOF", func(v string) string { return v + "\n" }},
	{"here-document around a terminator", "cat <<EOF\nE{{.v}}F\nEOF", func(v string) string { return "E" + v + "F\n" }},
	{"tab-stripped here-document", "cat <<-EOF\n\t{{.v}}\n\tEOF", func(v string) string { return v + "\n" }},
	{"two side by side in a here-document", "cat <<EOF\n{{.v}}{{.v}}\nEOF", func(v string) string { return v + v + "\n" }},
	{"comment", `printf ok # {{.v}}`, func(string) string { return "ok" }},
	{"second line", "true\nprintf '%s' {{.v}}", id},
	{"quoted", `printf '%s' {{quote .v}}`, id},
	{"argument of sh -c", `sh -c 'printf "%s" "$1"' sh {{.v}}`, id},
	{"case subject", `case {{.v}} in *) printf '%s' {{.v}};; esac`, id},
	{"[ -eq ] compares without evaluating", `[ {{.v}} -eq 1 ] 2>/dev/null; printf '%s' {{.v}}`, id},
}

func id(v string) string     { return v }
func trimNL(v string) string { return strings.TrimRight(v, "\n") }

func TestValuesStayData(t *testing.T) {
	for _, sh := range testShells(t) {
		box := newSandbox(t)
		for _, c := range contexts {
			empty, _, err := render(c.tmpl, "")
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, v := range hostile {
				cmd, _, err := render(c.tmpl, v)
				if err != nil {
					t.Errorf("%s %s: %q: %v", sh, c.name, v, err)
					continue
				}
				if cmd.Text != empty.Text {
					t.Errorf("%s: the code depends on the value %q:\n%q\n%q", c.name, v, cmd.Text, empty.Text)
				}
				if got, want := box.run(t, sh, cmd), c.want(v); got != want {
					t.Errorf("%s %s with %q:\nscript %q\n   got %q\n  want %q", sh, c.name, v, cmd.Text, got, want)
				}
			}
		}
	}
}

func TestReferences(t *testing.T) {
	tests := []struct{ tmpl, want string }{
		{`echo {{.v}}`, `echo ${AWF_V_1:+"${AWF_V_1}"}`},
		{`echo "a {{.v}}"`, `echo "a ${AWF_V_1}"`},
		{`echo 'a {{.v}} b'`, `echo 'a '"${AWF_V_1}"' b'`},
		{"cat <<EOF\n{{.v}}{{.v}}\nEOF", "cat <<EOF\n${AWF_V_1}${AWF_V_2}\nEOF"},
		{`echo ${x:-{{.v}}} "${x:-{{.v}}}"`, `echo ${x:-"${AWF_V_1}"} "${x:-${AWF_V_2}}"`},
		{`echo {{quote .v}} "{{quote .v}}"`, `echo "${AWF_V_1}" "${AWF_V_2}"`},
		{"echo `echo {{.v}}`", "echo `echo ${AWF_V_1:+\"${AWF_V_1}\"}`"},
		{`echo # {{.v}}`, `echo # ${AWF_V_1:+"${AWF_V_1}"}`},
	}
	for _, tt := range tests {
		cmd, _, err := render(tt.tmpl, "it's")
		if err != nil || cmd.Text != tt.want {
			t.Errorf("%q: got %q (%v), want %q", tt.tmpl, cmd.Text, err, tt.want)
			continue
		}
		for i, kv := range cmd.Env {
			want := fmt.Sprintf("AWF_V_%d=it's", i+1)
			if strings.HasPrefix(tt.tmpl, "echo {{quote") && i == 1 {
				want = `AWF_V_2='it'\''s'`
			}
			if kv != want {
				t.Errorf("%q: env[%d] = %q, want %q", tt.tmpl, i, kv, want)
			}
		}
	}
}

func TestBenignValuesReadAsBefore(t *testing.T) {
	// Shown pastes plain values exactly as raw interpolation did, and the shell prints them so.
	box := newSandbox(t)
	for _, v := range []string{"hello", "v1.2.3", "src/main.go", "user@host", "50%", "a,b:c", "-v", ""} {
		cmd, _, err := render(`echo {{.v}} done`, v)
		if want := "echo " + v + " done"; err != nil || cmd.Shown() != want {
			t.Errorf("%q: shown %q (%v), want %q", v, cmd.Shown(), err, want)
		}
		raw, _, _ := render(`echo {{raw .v}} done`, v)
		for _, sh := range testShells(t) {
			if got, want := box.run(t, sh, cmd), box.run(t, sh, raw); got != want {
				t.Errorf("%s %q: printed %q, pasted text prints %q", sh, v, got, want)
			}
		}
	}
}

func TestShown(t *testing.T) {
	cmd, _, err := render(`echo {{.v}} "{{.v}}" {{quote .v}}`, "it's")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cmd.Shown(), `echo 'it'\''s' "it's" 'it'\''s'`; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
}

func TestPlacesThatTakeNoValue(t *testing.T) {
	for _, tmpl := range []string{
		`echo \{{.v}}`, `echo "\{{.v}}"`, `echo ${{.v}}`, `echo "${{.v}}"`, "cat <<{{.v}}\nx\n", "cat <<EO{{.v}}\nx\nEOF",
		`{{if .v}}echo '{{else}}echo {{end}}x'`, `{{range .v}}'{{end}}`, `{{template "x"}}`,
	} {
		_, _, err := render(tmpl, "x")
		if err == nil {
			t.Errorf("%q: want a refusal", tmpl)
			continue
		}
		if _, ok := err.(*PlaceError); !ok {
			t.Errorf("%q: error %T %v is not a PlaceError", tmpl, err, err)
		}
	}
	if _, _, err := render(`echo {{.v}}`, "a\x00b"); !errors.Is(err, ErrNUL) {
		t.Errorf("a NUL byte: err = %v", err)
	}
}

func TestPlaceErrorPosition(t *testing.T) {
	_, _, err := render("true\necho a \\{{.v}}", "x")
	pe, ok := err.(*PlaceError)
	if !ok || pe.Line != 2 || pe.Column != 9 {
		t.Fatalf("err = %#v, want line 2 column 9, where {{ opens", err)
	}
}

func TestRawAndQuote(t *testing.T) {
	out, raws, err := render("echo {{raw .v}}\necho {{.v | raw}} {{.v}}", "$HOME")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "echo $HOME\necho $HOME ${AWF_V_1:+\"${AWF_V_1}\"}" || len(out.Env) != 1 {
		t.Errorf("out = %q %q", out.Text, out.Env)
	}
	if len(raws) != 2 || raws[0] != (RawUse{1, 6}) || raws[1].Line != 2 {
		t.Errorf("raws = %+v", raws)
	}
	out, _, err = render(`echo {{quote .v}} "{{quote .v}}" {{.v | quote}}`, "a'b")
	if err != nil {
		t.Fatal(err)
	}
	box := newSandbox(t)
	if got := box.run(t, "/bin/sh", out); got != "a'b 'a'\\''b' a'b\n" {
		t.Errorf("quote keeps its meaning in a word and is data in quotes; got %q from %q", got, out.Text)
	}
	if out, _, _ = render(`printf '[%s]' {{quote .v}}`, ""); box.run(t, "/bin/sh", out) != "[]" {
		t.Errorf("an empty quoted value is still one word: %q", out.Text)
	}
}

func TestBranchesAndLoops(t *testing.T) {
	out, _, err := render(`{{if .v}}printf '%s|' '{{.v}}'{{else}}echo "{{.v}}"{{end}} {{range .l}}{{.}}{{end}}{{with .v}}{{.}}{{end}}`, "a'b")
	if err != nil {
		t.Fatal(err)
	}
	if got := newSandbox(t).run(t, "/bin/sh", out); got != "a'b|x ya'b|" {
		t.Errorf("got %q from %q", got, out.Text)
	}
}

func TestNonStringValues(t *testing.T) {
	out, _, err := render(`echo {{.n}} "{{.n}}"`, "")
	if err != nil || out.Shown() != `echo 41 "41"` || out.Env[0] != "AWF_V_1=41" {
		t.Fatalf("out = %q %q, err = %v", out.Shown(), out.Env, err)
	}
}

func TestCheckReportsEveryPlace(t *testing.T) {
	raws, places, err := Check("echo \\{{.a}} {{raw .b}}\necho ${{.c}} '{{.d}}'")
	if err != nil {
		t.Fatal(err)
	}
	if len(places) != 2 || places[0].Line != 1 || places[0].Column != 7 || places[1].Line != 2 || places[1].Column != 7 {
		t.Fatalf("places = %+v", places)
	}
	if !errors.Is(places[0], ErrAfterBackslash) || !errors.Is(places[1], ErrAfterDollar) {
		t.Errorf("errors = %v, %v", places[0], places[1])
	}
	if len(raws) != 1 || raws[0] != (RawUse{1, 14}) {
		t.Errorf("raws = %+v", raws)
	}
	if _, _, err := Check("{{.a"); err == nil {
		t.Error("a syntax error is returned")
	}
	if r, p, err := Check("no actions"); r != nil || p != nil || err != nil {
		t.Error("text without actions has nothing to say")
	}
}

func TestEscapeDirectly(t *testing.T) {
	tests := []struct {
		c       Context
		v, want string
		bad     string
	}{
		{Context{Kind: Arithmetic}, "123456789012345678", "123456789012345678", ""},
		{Context{Kind: Arithmetic}, "-123456789012345678", "-123456789012345678", ""},
		{Context{Kind: Arithmetic}, "1234567890123456789", "", "not an integer"},
		{Context{Kind: Arithmetic}, "-", "", "not an integer"},
		{Context{Kind: Arithmetic}, "9/", "", "not an integer"},
		{Context{Kind: Arithmetic}, ":0", "", "not an integer"},
		{Context{Kind: Arithmetic}, strings.Repeat("x", 40), "", `"` + strings.Repeat("x", 40) + `" is not`},
		{Context{Kind: Arithmetic}, strings.Repeat("y", 41), "", strings.Repeat("y", 40) + "…"},
		{Context{Kind: Word}, "aZ09_@%+:,./-", "aZ09_@%+:,./-", ""},
		{Context{Kind: Word}, "a=b", "'a=b'", ""},
		{Context{Kind: Word}, "`", "'`'", ""},
		{Context{Kind: Word}, "[", "'['", ""},
		{Context{Kind: Word}, "{", "'{'", ""},
		{Context{Kind: Word}, "\x7f", "'\x7f'", ""},
		{Context{Kind: Word, Backticks: 2}, "a b$", "'a b\\\\\\$'", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "EOF\xe7", "EOF${-+}\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "EOFX\xe7", "EOFX\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "E\x80", "E${-+}\x80", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "E\x7f", "E\x7f", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "x\nE\xe7\nEO\xe7", "x\nE${-+}\xe7\nEO${-+}\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true}, "\t\t", "\t\t", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true}, "\t\t\xe7", "\t\t\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", Line: "E"}, "\xe7", "${-+}\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", Line: "X"}, "\xe7", "\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "\xe7", "\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true, Line: "\t"}, "E\xe7", "E${-+}\xe7", ""},
		{Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true, Line: "\t"}, "\xe7", "\xe7", ""},
		{Context{Kind: HeredocLiteral, Delimiter: "EOF", Line: "EO"}, "\xe7", "", "drops a non-ASCII byte"},
		{Context{Kind: Heredoc, Delimiter: "EOF", Line: "E", Suffix: "F"}, "O", "", "terminator"},
		{Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true}, "\t\tEOF", "", "terminator"},
		{Context{Kind: Heredoc, Delimiter: "EOF"}, "\tEOF", "\tEOF", ""},
		{Context{Kind: Kind(42)}, "x", "", "unknown shell context"},
	}
	for _, tt := range tests {
		got, err := Escape(tt.c, tt.v)
		if tt.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("%+v %q: err = %v, want %q", tt.c, tt.v, err, tt.bad)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%+v %q: got %q, %v; want %q", tt.c, tt.v, got, err, tt.want)
		}
	}
}
