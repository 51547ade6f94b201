package shellsafe

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"
	"time"
)

// render parses tmpl as a shell-bound template, prepares it and fills {{.v}} with v.
func render(tmpl, v string) (string, []RawUse, error) {
	funcs := Funcs()
	funcs["quote"] = func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	t, err := template.New("t").Funcs(funcs).Option("missingkey=error").Parse(tmpl)
	if err != nil {
		return "", nil, err
	}
	raws, err := Prepare(t, tmpl)
	if err != nil {
		return "", nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, map[string]any{"v": v, "n": 41, "l": []string{"x y"}})
	return b.String(), raws, err
}

// sandbox is a private directory with its own HOME and TMPDIR, where the scripts run.
type sandbox struct{ dir string }

func newSandbox(t testing.TB) sandbox {
	t.Helper()
	return sandbox{dir: t.TempDir()}
}

// run executes script with shell in the sandbox and returns its stdout; a marker file named
// PWNED anywhere in the sandbox means a value ran as code.
func (s sandbox) run(t testing.TB, shell, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", script)
	cmd.Dir = s.dir
	cmd.Env = []string{"HOME=" + s.dir, "TMPDIR=" + s.dir, "PATH=/usr/bin:/bin", "IFS= \t\n"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	if _, err := os.Stat(filepath.Join(s.dir, "PWNED")); err == nil {
		_ = os.Remove(filepath.Join(s.dir, "PWNED"))
		t.Fatalf("%s ran a value as code:\n%s\nstderr: %s", shell, script, errb.String())
	}
	return out.String()
}

// shells are the distinct shells of this machine (/bin/sh is often dash itself).
func shells(t testing.TB) []string {
	var out []string
	seen := map[string]bool{}
	for _, sh := range []string{"/bin/sh", "/bin/bash", "/bin/dash"} {
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

// contexts are templates placing {{.v}} in each shell context; want is what the script prints
// for value v, or "" with skip when the value cannot be data there (the placement must refuse).
var contexts = []struct {
	name string
	tmpl string
	want func(v string) string
	// refuse reports whether the place must refuse v instead of printing it.
	refuse func(v string) bool
}{
	{"word", `printf '%s' {{.v}}`, id, never},
	{"word with text around", `printf '%s' pre{{.v}}post`, func(v string) string { return "pre" + v + "post" }, never},
	{"assignment", `X={{.v}}; printf '%s' "$X"`, id, never},
	{"single quotes", `printf '%s' '{{.v}}'`, id, never},
	{"double quotes", `printf '%s' "{{.v}}"`, id, never},
	{"double-quoted default", `printf '%s' "${UNSET_AWF:-{{.v}}}"`, id, holds("'")},
	{"command substitution", `printf '%s' "$(printf '%s' {{.v}})"`, trimNL, never},
	{"double quotes in substitution", `printf '%s' "$(printf '%s' "{{.v}}")"`, trimNL, never},
	{"backticks", "printf '%s' \"`printf '%s' {{.v}}`\"", trimNL, never},
	{"double quotes in backticks", "printf '%s' \"`printf '%s' \"{{.v}}\"`\"", trimNL, never},
	{"here-document", "cat <<EOF\n{{.v}}\nEOF", func(v string) string { return v + "\n" }, func(v string) bool { return makesLine(v, "EOF") }},
	{"quoted here-document", "cat <<'EOF'\nline {{.v}}\nEOF", func(v string) string { return "line " + v + "\n" },
		func(v string) bool { return makesLine("line "+v, "EOF") || dashWouldDrop("line "+v, "EOF") }},
	{"here-document around a terminator", "cat <<EOF\nE{{.v}}F\nEOF", func(v string) string { return "E" + v + "F\n" },
		func(v string) bool { return makesLine("E"+v+"F", "EOF") }},
	{"tab-stripped here-document", "cat <<-EOF\n\t{{.v}}\n\tEOF", stripTabs,
		func(v string) bool { return makesLine(stripTabs(v), "EOF") }},
	{"comment", `printf ok # {{.v}}`, func(string) string { return "ok" }, never},
	{"second line", "true\nprintf '%s' {{.v}}", id, never},
}

// makesLine reports whether text has a line that is delim.
func makesLine(text, delim string) bool {
	return slices.Contains(strings.Split(text, "\n"), delim)
}

// stripTabs is what <<- does to each line of a here-document, plus the newline cat adds.
func stripTabs(v string) string {
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n") + "\n"
}

// dashWouldDrop is the test's own statement of the dash bug: on a here-document line that
// starts with part of the terminator, a non-ASCII byte right after that part is lost.
func dashWouldDrop(text, delim string) bool {
	for _, line := range strings.Split(text, "\n") {
		for k := 1; k <= len(delim) && k < len(line); k++ {
			if line[:k] == delim[:k] && line[k] >= 0x80 {
				return true
			}
		}
	}
	return false
}

func id(v string) string     { return v }
func never(string) bool      { return false }
func trimNL(v string) string { return strings.TrimRight(v, "\n") }
func holds(d string) func(string) bool {
	return func(v string) bool { return strings.Contains(v, d) }
}

func TestValuesStayData(t *testing.T) {
	for _, sh := range shells(t) {
		box := newSandbox(t)
		for _, c := range contexts {
			for _, v := range hostile {
				script, _, err := render(c.tmpl, v)
				if c.refuse(v) {
					if err == nil {
						t.Errorf("%s %s: %q must be refused, got script %q", sh, c.name, v, script)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %s: %q: %v", sh, c.name, v, err)
					continue
				}
				got := box.run(t, sh, script)
				if want := c.want(v); got != want {
					t.Errorf("%s %s with %q:\nscript %q\n   got %q\n  want %q", sh, c.name, v, script, got, want)
				}
			}
		}
	}
}

func TestArithmetic(t *testing.T) {
	box := newSandbox(t)
	for _, v := range []string{"41", "-1", "0"} {
		script, _, err := render(`printf '%s' $(( {{.v}} + 1 ))`, v)
		if err != nil {
			t.Fatal(err)
		}
		if got := box.run(t, "/bin/sh", script); got == "" {
			t.Errorf("%q: no output", v)
		}
	}
	for _, v := range []string{"1+1", "x", "a[$(touch PWNED)]", "", "1e3", "99999999999999999999"} {
		if s, _, err := render(`echo $(( {{.v}} + 1 ))`, v); err == nil {
			t.Errorf("%q must be refused in $((…)), got %q", v, s)
		}
	}
}

func TestBenignValuesReadAsBefore(t *testing.T) {
	// Plain values paste exactly as raw interpolation did, so existing workflows keep their text.
	for _, v := range []string{"hello", "v1.2.3", "src/main.go", "user@host", "50%", "a,b:c", "-v", ""} {
		got, _, err := render(`echo {{.v}} done`, v)
		if want := "echo " + v + " done"; err != nil || got != want {
			t.Errorf("%q: got %q (%v), want %q", v, got, err, want)
		}
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
	if out != "echo $HOME\necho $HOME '$HOME'" {
		t.Errorf("out = %q", out)
	}
	if len(raws) != 2 || raws[0] != (RawUse{1, 6}) || raws[1].Line != 2 {
		t.Errorf("raws = %+v", raws)
	}
	out, _, err = render(`echo {{quote .v}} "{{quote .v}}"`, "a'b")
	if err != nil {
		t.Fatal(err)
	}
	box := newSandbox(t)
	if got := box.run(t, "/bin/sh", out); got != "a'b 'a'\\''b'\n" {
		t.Errorf("quote keeps its meaning in a word and is data in quotes; got %q from %q", got, out)
	}
}

func TestBranchesAndLoops(t *testing.T) {
	out, _, err := render(`{{if .v}}echo '{{.v}}'{{else}}echo "{{.v}}"{{end}} {{range .l}}{{.}}{{end}}{{with .v}}{{.}}{{end}}`, "a'b")
	if err != nil {
		t.Fatal(err)
	}
	if out != `echo 'a'\''b' 'x y''a'\''b'` {
		t.Errorf("out = %q", out)
	}
}

func TestNonStringValues(t *testing.T) {
	out, _, err := render(`echo {{.n}} "{{.n}}"`, "")
	if err != nil || out != `echo 41 "41"` {
		t.Fatalf("out = %q, err = %v", out, err)
	}
}

func FuzzValuesStayData(f *testing.F) {
	for _, v := range hostile {
		f.Add(v, uint8(0))
	}
	f.Fuzz(func(t *testing.T, v string, which uint8) {
		if strings.ContainsRune(v, 0) {
			return // a shell argument cannot hold NUL
		}
		c := contexts[int(which)%len(contexts)]
		script, _, err := render(c.tmpl, v)
		if err != nil {
			if !c.refuse(v) {
				t.Fatalf("%s: %q refused: %v", c.name, v, err)
			}
			return
		}
		box := sandbox{dir: t.TempDir()}
		if got, want := box.run(t, "/bin/sh", script), c.want(v); got != want {
			t.Fatalf("%s with %q:\nscript %q\n   got %q\n  want %q", c.name, v, script, got, want)
		}
	})
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
