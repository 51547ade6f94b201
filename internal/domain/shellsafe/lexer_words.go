package shellsafe

import (
	"bytes"
	"slices"
	"strings"
)

// holeMark stands for a value in the words of a simple command.
const holeMark = '\x00'

// simple is the simple command being read in a command-level frame: its words as written, so
// that a value can be refused where the command would read it as code (eval's arguments, the
// script after sh -c, a [[ … -eq … ]] test, a pipe into sh).
type simple struct {
	words  []string
	cur    []byte
	inWord bool
	// test: the command is [[ … ]], whose && || ( ) < > do not end it.
	test bool
	// holes are this command's places; piped those of the commands before it in a pipeline.
	holes, piped []*Context
	// docs are the here-documents this command reads: whether they are code is known at its end.
	docs []*heredoc
	// redirect: the next word is a redirection's target (a file, or a here-string's text),
	// not an argument; stdin holds the places in here-strings, code when the command reads it.
	redirect redirection
	stdin    []*Context
}

type redirection int

const (
	noRedirect redirection = iota
	redirectFile
	redirectHereString
)

func (sc simple) clone() simple {
	sc.words = slices.Clone(sc.words)
	sc.cur = slices.Clone(sc.cur)
	sc.holes = slices.Clone(sc.holes)
	sc.piped = slices.Clone(sc.piped)
	sc.docs = slices.Clone(sc.docs)
	sc.stdin = slices.Clone(sc.stdin)
	return sc
}

// add appends a character of the current word.
func (sc *simple) add(c byte) {
	sc.cur = append(sc.cur, c)
	sc.inWord = true
}

// hole records a value in the current word.
func (sc *simple) hole(c *Context) {
	sc.add(holeMark)
	sc.holes = append(sc.holes, c)
	if sc.redirect == redirectHereString {
		sc.stdin = append(sc.stdin, c)
	}
}

// endWord closes the current word; a closing ]] ends a test and judges the values in it.
func (sc *simple) endWord() {
	if !sc.inWord {
		return
	}
	w := string(sc.cur)
	sc.cur, sc.inWord = sc.cur[:0], false
	if sc.redirect != noRedirect {
		sc.redirect = noRedirect
		return
	}
	sc.words = append(sc.words, unquote(w))
	switch {
	case w == "[[" && len(sc.words) == commandIndex(sc.words)+1:
		sc.test = true
	case w == "]]" && sc.test:
		sc.test = false
		if slices.ContainsFunc(sc.words, isArithTest) {
			refuse(sc.holes, ErrTestArithmetic)
		}
	}
}

// endCommand closes the simple command; pipe says a | follows, whose reader may run the values
// of this command as code.
func (sc *simple) endCommand(pipe bool) {
	sc.endWord()
	code := readsCode(sc.words)
	if code {
		refuse(sc.piped, ErrPipedToShell)
		refuse(sc.stdin, ErrPipedToShell)
	}
	for _, d := range sc.docs {
		d.code = code
	}
	if pipe {
		sc.piped = append(sc.piped, sc.holes...)
	} else {
		sc.piped = sc.piped[:0]
	}
	sc.words, sc.holes, sc.docs, sc.stdin, sc.test = sc.words[:0], sc.holes[:0], sc.docs[:0], sc.stdin[:0], false
}

func refuse(places []*Context, err error) {
	for _, c := range places {
		if c.Refused == nil {
			c.Refused = err
		}
	}
}

// role tells whether a value added now to the current word would be read as code by this
// command. The current word is the text before the value.
func (sc *simple) role() error {
	if sc.redirect != noRedirect {
		return nil // a file name, or a here-string judged with the command (stdin)
	}
	words := append(slices.Clip(sc.words), string(sc.cur))
	hole := len(words) - 1
	if assignsIndex(sc.cur) {
		return ErrArithmetic
	}
	ci := commandIndex(words)
	if ci >= hole {
		return nil // the value is (part of) the command's name or an assignment
	}
	if err := builtinRole(words, ci, hole); err != nil {
		return err
	}
	for j := ci; j < hole; j++ {
		if flags, ok := interpreter(words[j]); ok && scriptWord(words, j, hole, flags) || joinsCommand(words, j, hole) {
			return ErrReparsed
		}
	}
	return nil
}

// builtinRole refuses a value that the command word ci gives to the shell as code or as a
// variable name (bash evaluates an array index in a name as arithmetic).
func builtinRole(words []string, ci, hole int) error {
	prev := words[hole-1]
	switch name := unquote(words[ci]); name {
	case "eval", "trap":
		return ErrReparsed
	case "let", "unset":
		return ErrArithmetic
	case "[[":
		if prev == "-v" || isArithTest(prev) {
			return ErrTestArithmetic
		}
	case "printf", "test", "[":
		if prev == "-v" {
			return ErrArithmetic
		}
	case "declare", "typeset", "local", "export", "readonly":
		if !strings.Contains(words[hole], "=") || slices.ContainsFunc(words[ci+1:hole], isIntegerFlag) {
			return ErrArithmetic
		}
	}
	return nil
}

// wrappers run their arguments as a command: the command word comes after them.
var wrappers = map[string]bool{"command": true, "builtin": true, "exec": true, "env": true, "sudo": true, "doas": true,
	"nohup": true, "time": true, "nice": true, "timeout": true, "xargs": true, "stdbuf": true, "setsid": true, "!": true}

// commandIndex is the index of the command word: after assignments, wrappers and their options
// (and timeout's duration).
func commandIndex(words []string) int {
	i := 0
	for i < len(words) {
		w := words[i]
		switch {
		case isAssignment(w):
			i++
		case wrappers[unquote(w)]:
			i++
			for i < len(words) && (strings.HasPrefix(words[i], "-") || isAssignment(words[i]) || w == "timeout" && isDuration(words[i])) {
				i++
			}
		default:
			return i
		}
	}
	return i
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && isName(strings.TrimSuffix(name, "+"))
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// isDuration reports whether w is a number with an optional unit (5, 1.5, 5s, 2m).
func isDuration(w string) bool {
	if n := len(w); n > 0 && strings.IndexByte("smhd", w[n-1]) >= 0 {
		w = w[:n-1]
	}
	return strings.ContainsAny(w, "0123456789") && strings.Trim(w, "0123456789.") == ""
}

// assignsIndex reports whether a word so far is name[… with the index still open: bash
// evaluates an indexed array's index as arithmetic.
func assignsIndex(cur []byte) bool {
	name, index, ok := strings.Cut(string(cur), "[")
	return ok && isName(name) && !strings.Contains(index, "]")
}

// isArithTest reports whether a [[ … ]] operand is an operator that evaluates its sides.
func isArithTest(w string) bool {
	switch w {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v":
		return true
	}
	return false
}

func isIntegerFlag(w string) bool {
	return (strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+")) && strings.ContainsRune(w[1:], 'i')
}

// unquote is a word without its quotes and backslashes, enough to name a command.
func unquote(w string) string {
	if !strings.ContainsAny(w, `'"\`) {
		return w
	}
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		if c := w[i]; c != '\'' && c != '"' && c != '\\' {
			b = append(b, c)
		}
	}
	return string(b)
}

// escaped adds a backslash-escaped character to the current word; an escaped newline joins
// lines and leaves no character.
func (sc *simple) escaped(c byte) {
	if c != '\n' {
		sc.add(c)
		return
	}
	sc.cur = bytes.TrimSuffix(sc.cur, []byte{'\\'})
}

// quoted is the simple command whose current word the text of the innermost '…' or "…" is part of.
func (l *Lexer) quoted() *simple {
	if k := l.top().kind; k == fSingle || k == fDouble {
		return l.command()
	}
	return nil
}

// command is the simple command of the innermost command-level frame, the one whose word a
// value here is part of.
func (l *Lexer) command() *simple {
	for i := len(l.stack) - 1; i >= 0; i-- {
		switch l.stack[i].kind {
		case fTop, fCmdSubst, fBacktick:
			return &l.stack[i].sc
		}
	}
	return nil
}

// risky are the command words that make a later value code or a variable name.
var risky = map[string]bool{"eval": true, "trap": true, "let": true, "unset": true, "[[": true, "declare": true, "typeset": true,
	"local": true, "export": true, "readonly": true, "printf": true, "test": true, "[": true}

// risk counts the words of the simple commands being read that may make a later value code:
// when {{if}} branches leave different words, the riskier branch is followed.
func (l *Lexer) risk() int {
	n := 0
	for _, f := range l.stack {
		for _, w := range append(slices.Clip(f.sc.words), string(f.sc.cur)) {
			if _, interp := interpreter(w); interp || risky[unquote(w)] || strings.HasPrefix(w, "-") {
				n++
			}
		}
	}
	return n
}
