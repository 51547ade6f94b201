package shellsafe

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// commandWords are commands whose words decide whether a value is code: how the command word is
// written (quoted, escaped, after assignments and wrappers), the options of an interpreter, ssh's
// destination, and the frames that end a command ($(…), `…`, a comment). raw, when set, is the
// command with a payload pasted where the value goes, as text substitution would: the payload
// makes a file named RAN exactly when the place is code (want != nil), under dash and bash.
var commandWords = []struct {
	tmpl string
	want error
	raw  string
}{
	{`\eval {{.v}}`, ErrReparsed, `\eval touch RAN`},
	{"ev\\\nal {{.v}}", ErrReparsed, "ev\\\nal touch RAN"},
	{`a=1 eval {{.v}}`, ErrReparsed, `a=1 eval touch RAN`},
	{`z=1 eval {{.v}}`, ErrReparsed, `z=1 eval touch RAN`},
	{`A=1 eval {{.v}}`, ErrReparsed, `A=1 eval touch RAN`},
	{`Z=1 eval {{.v}}`, ErrReparsed, `Z=1 eval touch RAN`},
	{`x0=1 eval {{.v}}`, ErrReparsed, `x0=1 eval touch RAN`},
	{`x9=1 eval {{.v}}`, ErrReparsed, `x9=1 eval touch RAN`},
	{`_=1 X+=2 eval {{.v}}`, ErrReparsed, ""},
	{`1=x eval {{.v}}`, nil, `1=x eval touch RAN`}, // a command named 1=x, not an assignment
	{`=x eval {{.v}}`, nil, `=x eval touch RAN`},
	{`echo {{.v}} | timeout 5s bash`, ErrPipedToShell, `echo touch RAN | timeout 5s bash`},
	{`echo {{.v}} | timeout 1.5 bash`, ErrPipedToShell, `echo touch RAN | timeout 1.5 bash`},
	{`echo {{.v}} | env -i sh`, ErrPipedToShell, `echo touch RAN | env -i sh`},
	{`echo {{.v}} | xargs`, nil, `echo touch RAN | xargs`},
	{`echo {{.v}} | sudo`, nil, ""},
	{`x=$(echo {{.v}} | sh)`, ErrPipedToShell, `x=$(echo touch RAN | sh)`},
	{"echo {{.v}} | sh # run it\necho done", ErrPipedToShell, "echo touch RAN | sh # run it\necho done"},
	{`sh -c -x 'echo {{.v}}'`, ErrReparsed, `sh -c -x 'echo x; touch RAN' 2>/dev/null`},
	{`bash -c -e -x 'echo {{.v}}'`, ErrReparsed, `bash -c -e -x 'echo x; touch RAN' 2>/dev/null`},
	{`perl -e'print "{{.v}}"'`, ErrReparsed, `perl -e'print ""; system "touch RAN"; ""'`},
	{`python3 -c'print("{{.v}}")'`, ErrReparsed, ""},
	{`python3 -c -{{.v}}`, ErrReparsed, ""},
	{`echo watch{{.v}}`, nil, ""},
	{`echo {{.v}} | ssh -p 22 host`, ErrPipedToShell, ""},
	{`echo {{.v}} | ssh -- host`, ErrPipedToShell, ""},
	{`echo {{.v}} | ssh -v`, nil, ""},
	{`echo {{.v}} | ssh --`, nil, ""},
	{`ssh -l {{.v}} host`, nil, ""},
	{`declare -g fi=1 x={{.v}}`, nil, ""},
	{`echo ${0:{{.v}}}`, ErrArithmetic, ""},
	{`echo ${9:{{.v}}}`, ErrArithmetic, ""},
	{"{{if .a}}eval{{else}}echo -n{{end}} {{.v}}", ErrReparsed, ""},
	{`'eval' {{.v}}`, ErrReparsed, `'eval' touch RAN`},
	{`e'va'l {{.v}}`, ErrReparsed, `e'va'l touch RAN`},
	{`"ev"al {{.v}}`, ErrReparsed, `"ev"al touch RAN`},
	{`"sh" -c '{{.v}}'`, ErrReparsed, `"sh" -c 'touch RAN'`},
	{`s'h' -c "{{.v}}"`, ErrReparsed, `s'h' -c "touch RAN"`},
	{`sh '-c' '{{.v}}'`, ErrReparsed, `sh '-c' 'touch RAN'`},
	{`echo {{.v}} | "sh"`, ErrPipedToShell, `echo touch RAN | "sh"`},
	{`echo {{.v}} | 'bash'`, ErrPipedToShell, `echo touch RAN | 'bash'`},
	{`sh -c 'echo "$1"' sh {{.v}}`, nil, `sh -c 'echo "$1"' sh touch RAN`},
	{`echo 'eval' {{.v}}`, nil, `echo 'eval' touch RAN`},
	{`echo {{.v}} | timeout 5 sh`, ErrPipedToShell, `echo touch RAN | timeout 5 sh`},
	{`echo {{.v}} | timeout 2m sh`, ErrPipedToShell, `echo touch RAN | timeout 2m sh`},
	{`timeout 5 sh -c '{{.v}}'`, ErrReparsed, `timeout 5 sh -c 'touch RAN'`},
	{`timeout 5 dash -c '{{.v}}'`, ErrReparsed, `timeout 5 dash -c 'touch RAN'`},
	{`timeout 5 echo {{.v}}`, nil, `timeout 5 echo touch RAN`},
	{"x=`echo {{.v}} | sh`", ErrPipedToShell, "x=`echo touch RAN | sh`"},
	{"x=\"`echo {{.v}} | sh`\"", ErrPipedToShell, "x=\"`echo touch RAN | sh`\""},
	{"x=`echo {{.v}}`; echo $x", nil, "x=`echo touch RAN`; echo $x"},
}

func TestCommandWords(t *testing.T) {
	for _, tt := range commandWords {
		_, places, err := Check(tt.tmpl)
		if tt.want == nil {
			if err != nil || len(places) != 0 {
				t.Errorf("Check(%q) = %v, %v; want no refusal", tt.tmpl, places, err)
			}
			continue
		}
		if err != nil || len(places) != 1 || !errors.Is(places[0], tt.want) {
			t.Errorf("Check(%q) = %v, %v; want one %v", tt.tmpl, places, err, tt.want)
		}
	}
}

// TestCommandWordsUnderShells runs each raw form: the payload runs where the value is refused.
func TestCommandWordsUnderShells(t *testing.T) {
	for _, sh := range testShells(t) {
		for _, tt := range commandWords {
			if tt.raw == "" {
				continue
			}
			if ran := runsPayload(t, sh, tt.raw); ran != (tt.want != nil) {
				t.Errorf("%s %q: payload ran = %v, but the value is refused with %v", sh, tt.raw, ran, tt.want)
			}
		}
	}
}

// runsPayload runs script with shell in a private directory (its own HOME and TMPDIR) and
// reports whether it made the file RAN.
func runsPayload(t *testing.T, shell, script string) bool {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "TMPDIR=" + dir, "PATH=/usr/bin:/bin"}
	_ = cmd.Run()
	_, err := os.Stat(filepath.Join(dir, "RAN"))
	return err == nil
}

// TestLexerEdges: states the lexer reaches at the end of a chunk.
func TestLexerEdges(t *testing.T) {
	tests := []struct {
		before string
		want   Context
	}{
		// an escaped character in an expanding here-document stays part of its line
		{"cat <<EOF\na\\b", Context{Kind: Heredoc, Delimiter: "EOF", Line: `a\b`}},
		{"cat <<EOF\na\\$", Context{Kind: Heredoc, Delimiter: "EOF", Line: `a\$`}},
		// a ) closing $((… at the chunk's end returns to the command level
		{"echo $((1)", Context{Kind: Word}},
		{"echo $((1))", Context{Kind: Word}},
	}
	for _, tt := range tests {
		l := NewLexer()
		l.Text(tt.before)
		if got, err := l.Context(); err != nil || got != tt.want {
			t.Errorf("%q: got %+v, %v; want %+v", tt.before, got, err, tt.want)
		}
	}
}

func TestEscapeHeredocBodies(t *testing.T) {
	const v = "$x `y` \\z"
	for _, tt := range []struct {
		kind Kind
		want string
	}{
		{Heredoc, "\\$x \\`y\\` \\\\z"}, // the shell expands the body: $ ` \ are escaped
		{HeredocLiteral, v},             // nothing expands: the value as it is
	} {
		if got, err := Escape(Context{Kind: tt.kind, Delimiter: "EOF"}, v); err != nil || got != tt.want {
			t.Errorf("%v: got %q, %v; want %q", tt.kind, got, err, tt.want)
		}
	}
}

func TestValueEdges(t *testing.T) {
	if _, _, err := render(`echo {{.v}}`, "\x00b"); !errors.Is(err, ErrNUL) {
		t.Errorf("a leading NUL byte: err = %v", err)
	}
	if _, raws, err := render(`{{raw .v}} x`, "echo"); err != nil || len(raws) != 1 || raws[0] != (RawUse{1, 1}) {
		t.Errorf("raw at the start: %+v, %v; want line 1 column 1", raws, err)
	}
}

func TestProgramNames(t *testing.T) {
	for prog, shell := range map[string]bool{
		"/bash": true, "/usr/bin/bash5.2": true, "sh": true, "'dash'": true, "python3": false, "/": false, "": false,
	} {
		if IsShell(prog) != shell {
			t.Errorf("IsShell(%q) = %v", prog, !shell)
		}
	}
	for script, want := range map[string]string{
		"#!/bin/sh\necho":                 "/bin/sh",
		"#! /bin/bash -e":                 "/bin/bash",
		"#!/usr/bin/env -S python3 -u\nx": "python3",
		"#!/usr/bin/env A=1 bash":         "bash",
		"#!/usr/bin/env":                  "/usr/bin/env",
		"#!/usr/bin/env -i":               "/usr/bin/env",
		"#!\necho":                        "",
		"#!   \n":                         "",
		"echo\n#!/bin/sh":                 "",
	} {
		if got := ShebangProgram(script); got != want {
			t.Errorf("ShebangProgram(%q) = %q, want %q", script, got, want)
		}
	}
}
