// Package shellsafe places values into shell code as data. A workflow's `command` is a template
// whose author may put a value anywhere: a bare word, inside '…' or "…", in $(…) or backticks,
// in a heredoc, even in a comment. Pasting the value as raw text (what most workflow engines do)
// lets a value such as `"; touch x #` become code. This package reads the shell text around each
// placeholder, like html/template reads HTML, and escapes the value for exactly that context, so
// the shell sees the value byte for byte and runs nothing from it. A benign value prints as it
// did with raw pasting.
//
// The lexer follows POSIX sh (dash is /bin/sh on Debian) and stays safe under bash.
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
)

var kindNames = map[Kind]string{
	Word: "a bare word", SingleQuoted: "single quotes", DoubleQuoted: "double quotes", Comment: "a comment",
	Arithmetic: "$((…))", Heredoc: "a here-document", HeredocLiteral: "a quoted here-document",
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
}
