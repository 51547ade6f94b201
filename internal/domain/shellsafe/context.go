// Package shellsafe keeps values out of shell code. A workflow's `command` is a template whose
// author may put a value anywhere: a bare word, inside '…' or "…", in $(…) or backticks, in a
// here-document. Pasting the value as text (what most workflow engines do) lets a value such as
// `"; touch x #` become code, and escaping it for the place a lexer guesses it sits in fails as
// soon as the lexer and the shell disagree. So each placeholder becomes a reference to an
// environment variable set for that command only ("${AWF_V_1}"), quoted for its place: the
// shell's parse of the command never depends on a value, and a misjudged place can at worst
// change how a value is split, never what runs. The lexer remains to pick the quoting and to
// refuse the places where a shell would read a variable's text as code (arithmetic, eval,
// `sh -c '…'`, a quoted here-document, …; docs/guide/workflows.md lists them).
//
// The lexer follows POSIX sh (dash is /bin/sh on Debian) and bash.
package shellsafe

import "fmt"

// Kind is the syntactic place of a value in shell code.
type Kind int

// Kinds of places.
const (
	// Word is outside any quotes: a command word, an argument, an assignment's value.
	Word Kind = iota
	// SingleQuoted is inside '…' (and $'…', read as sh reads it).
	SingleQuoted
	// DoubleQuoted is inside "…", also "${x:-…}".
	DoubleQuoted
	// Comment is after a # that starts a word, up to the end of the line.
	Comment
	// Arithmetic is inside $((…)): only integers are data there.
	Arithmetic
	// Heredoc is the body of a here-document whose delimiter is unquoted ($ and ` expand).
	Heredoc
	// HeredocLiteral is the body of a here-document with a quoted delimiter (nothing expands).
	HeredocLiteral
	// AnsiC is inside bash's $'…', where \' does not close the quotes.
	AnsiC
)

var kindNames = map[Kind]string{
	Word: "a bare word", SingleQuoted: "single quotes", DoubleQuoted: "double quotes", Comment: "a comment",
	Arithmetic: "arithmetic", Heredoc: "a here-document", HeredocLiteral: "a quoted here-document",
	AnsiC: "$'…'",
}

// String names the kind for error messages.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Context is where a placeholder sits.
type Context struct {
	Kind Kind
	// Backticks counts the `…` substitutions around the place; each adds a layer of escaping.
	Backticks int
	// Delimiter is the here-document's terminator, for Heredoc and HeredocLiteral.
	Delimiter string
	// Line and Suffix are the here-document text before and after the place on its line: a
	// value completing them to the terminator would end the document early.
	Line, Suffix string
	// StripTabs marks a <<- document, whose terminator may follow tabs.
	StripTabs bool
	// InParam marks a place inside ${…}, where an unescaped } would end the expansion.
	InParam bool
	// Refused is set when text after the place shows that a shell would read the value as code
	// there (a [[ … -eq … ]] test, a pipe into sh): the lexer learns it only later.
	Refused error
}
