package shellsafe

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
)

// renderData renders tmpl with the given data (values of several names).
func renderData(t *testing.T, tmpl string, data map[string]any) Command {
	t.Helper()
	tp, err := template.New("t").Funcs(Funcs()).Option("missingkey=error").Parse(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Prepare(tp, tmpl)
	if err != nil {
		t.Fatalf("%q: %v", tmpl, err)
	}
	cmd, err := b.Execute(tp, data)
	if err != nil {
		t.Fatalf("%q: %v", tmpl, err)
	}
	return cmd
}

// TestLexerMisjudgementsRunNothing: each way the escaping lexer and the shell disagreed ran a
// value as code. With references the shell's parse no longer depends on a value: under dash
// and bash each prints the values as they are and the marker is never made.
func TestLexerMisjudgementsRunNothing(t *testing.T) {
	const run = "\ntouch PWNED\n"
	tests := []struct {
		name, tmpl string
		data       map[string]any
		want       string
		// dash is what dash prints, when it reads the text otherwise than bash.
		dash string
	}{
		{"two values end a here-document", "cat <<EOF\n{{.a}}{{.b}}\nEOF\necho after",
			map[string]any{"a": "EO", "b": "F" + run}, "EOF" + run + "\nafter\n", ""},
		{"a range over an array ends a here-document", "cat <<EOF\n{{range .l}}{{.}}{{end}}\nEOF",
			map[string]any{"l": []string{"EO", "F" + run}}, "EOF" + run + "\n", ""},
		{"an empty value before #", "echo issue {{.repo}}#{{.num}}",
			map[string]any{"repo": "", "num": "1" + run}, "issue #1" + run + "\n", ""},
		{"an empty step output before #", "echo {{.out}}#{{.num}} x",
			map[string]any{"out": "", "num": "1;touch PWNED"}, "#1;touch PWNED x\n", ""},
		{"an {{if}} that prints nothing before #", "echo issue {{if .x}}{{.repo}}{{end}}#{{.num}}",
			map[string]any{"x": false, "repo": "r", "num": "1" + run}, "issue\n", ""}, // the shell's comment now
		{"case … in x) inside \"$(…)\"", `echo "$(case x in x) echo {{.v}};; esac)"`,
			map[string]any{"v": "a; touch PWNED"}, "a; touch PWNED\n", ""},
		{"# right after $(…)", `echo $(echo a)#{{.v}}`,
			map[string]any{"v": "b; touch PWNED" + run}, "a#b; touch PWNED" + run + "\n", ""},
		{"a # comment inside backquotes", "echo `echo a # c` {{.v}}",
			map[string]any{"v": "; touch PWNED" + run}, "a ; touch PWNED" + run + "\n", ""},
		{"a quote in bash's '…' after $", `echo x$'\'' '{{.v}}'`,
			map[string]any{"v": "'; touch PWNED; '"}, "x' '; touch PWNED; '\n", "-"}, // dash: unterminated quote
	}
	for _, sh := range testShells(t) {
		box := newSandbox(t)
		for _, tt := range tests {
			cmd := renderData(t, tt.tmpl, tt.data)
			for _, kv := range cmd.Env {
				if _, v, _ := strings.Cut(kv, "="); v != "" && strings.Contains(cmd.Text, v) && !strings.Contains(tt.tmpl, v) {
					t.Errorf("%s: the code holds the value %q: %q", tt.name, v, cmd.Text)
				}
			}
			want := tt.want
			if tt.dash != "" && isDash(sh) {
				want = strings.TrimPrefix(tt.dash, "-")
			}
			if got := box.run(t, sh, cmd); got != want {
				t.Errorf("%s %s:\nscript %q\n   got %q\n  want %q", sh, tt.name, cmd.Text, got, want)
			}
		}
	}
}

func isDash(sh string) bool {
	real, _ := filepath.EvalSymlinks(sh)
	return strings.HasSuffix(real, "dash")
}

// TestRenderingTextIsTheSameForAnyValue: the code a template renders to depends on the
// template only.
func TestRenderingTextIsTheSameForAnyValue(t *testing.T) {
	tmpl := "x={{.v}}; echo \"{{.v}}\" '{{.v}}' `echo {{.v}}` $(echo {{.v}}) ${y:-{{.v}}}\ncat <<EOF\n{{.v}}\nEOF\n"
	var first string
	for i, v := range hostile {
		cmd := renderData(t, tmpl, map[string]any{"v": v})
		if i == 0 {
			first = cmd.Text
		}
		if cmd.Text != first || len(cmd.Env) != 7 {
			t.Fatalf("%q: text %q (%d values), want %q", v, cmd.Text, len(cmd.Env), first)
		}
	}
}

func BenchmarkRenderCommand20(b *testing.B) {
	var tmpl bytes.Buffer
	data := map[string]any{}
	for i := range 20 {
		name := string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		data[name] = "value " + name + ` with "quotes" and $(stuff)`
		switch i % 4 {
		case 0:
			tmpl.WriteString("echo {{." + name + "}}\n")
		case 1:
			tmpl.WriteString("echo \"prefix {{." + name + "}}\"\n")
		case 2:
			tmpl.WriteString("echo 'it {{." + name + "}}'\n")
		default:
			tmpl.WriteString("printf '%s' $(echo {{." + name + "}}) | tr a b\n")
		}
	}
	text := tmpl.String()
	b.ReportAllocs()
	for b.Loop() {
		tp, err := template.New("t").Funcs(Funcs()).Option("missingkey=error").Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		bind, _, err := Prepare(tp, text)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bind.Execute(tp, data); err != nil {
			b.Fatal(err)
		}
	}
}
