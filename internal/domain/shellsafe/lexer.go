package shellsafe

import (
	"errors"
	"slices"
	"strings"
)

type frameKind int

const (
	fTop      frameKind = iota // the command level
	fSingle                    // '…'
	fDouble                    // "…"
	fCmdSubst                  // $(…)
	fBacktick                  // `…`
	fArith                     // $((…))
	fParam                     // ${…}
	fComment                   // # … end of line
	fHeredoc                   // a here-document body
	fAnsiC                     // bash's $'…'
)

type frame struct {
	kind frameKind
	// depth counts unclosed ( inside $(…) and $((…)).
	depth int
	// inDouble marks ${…} written inside "…": its word is double-quoted.
	inDouble bool
	doc      *heredoc
	// closer ends an arithmetic frame: ) for $((…)) and ((…)), ] for $[…].
	closer byte
	// param is the text of a ${…} read so far, to tell a default value from an array index.
	param string
	// sc is the simple command being read in a command-level frame (top, $(…), `…`).
	sc simple
}

// clone copies a frame so that its simple command can change apart from the original.
func (f frame) clone() frame {
	f.sc = f.sc.clone()
	return f
}

type heredoc struct {
	// waiting are the places on the current line still missing their Suffix.
	waiting []*Context
	delim   string
	strip   bool // <<- strips leading tabs before comparing lines
	literal bool // the delimiter was quoted: nothing expands in the body
	line    strings.Builder
	// code: the command reading the document runs its text (sh, python3, …), so a value in it
	// would be code.
	code bool
}

// Lexer follows shell text as a template hands it over, chunk by chunk, and tells the context
// at each placeholder between chunks.
type Lexer struct {
	stack   []frame
	pending []*heredoc
	// escaped: the last character was a backslash whose effect applies to what comes next.
	escaped bool
	// dollar: the last character was an unquoted $ that the next character would extend.
	dollar bool
	// wordStart: the next character starts a word (so # starts a comment).
	wordStart bool
	// opPending: a here-document operator is waiting for its delimiter word.
	opPending bool
	// stripPending: that operator was <<- (tabs are stripped before the terminator).
	stripPending bool
	// delimOpen: the chunk ended inside a delimiter word, which a value would extend.
	delimOpen bool
}

// NewLexer starts at the command level.
func NewLexer() *Lexer {
	return &Lexer{stack: []frame{{kind: fTop}}, wordStart: true}
}

// Clone copies the state, for following the branches of {{if}} and {{range}} separately.
func (l *Lexer) Clone() *Lexer {
	c := *l
	c.stack = make([]frame, len(l.stack))
	for i, f := range l.stack {
		c.stack[i] = f.clone()
	}
	c.pending = slices.Clone(l.pending)
	return &c
}

// Same reports whether two lexers are in the same shell context, so that a template's branches
// can be joined: a branch that opens a quote the other does not leaves no single context.
func (l *Lexer) Same(o *Lexer) bool {
	if len(l.stack) != len(o.stack) || len(l.pending) != len(o.pending) || l.escaped != o.escaped ||
		l.dollar != o.dollar || l.opPending != o.opPending {
		return false
	}
	for i := range l.stack {
		a, b := l.stack[i], o.stack[i]
		if a.kind != b.kind || a.depth != b.depth || a.inDouble != b.inDouble {
			return false
		}
	}
	return true
}

func (l *Lexer) top() *frame { return &l.stack[len(l.stack)-1] }

func (l *Lexer) push(f frame) { l.stack = append(l.stack, f) }

// pop closes the innermost frame; only a frame above the command level is ever closed.
func (l *Lexer) pop() { l.stack = l.stack[:len(l.stack)-1] }

// Errors a placeholder can meet.
var (
	ErrAfterBackslash = errors.New("a value right after a backslash would lose its first character's meaning; remove the backslash")
	ErrAfterDollar    = errors.New("a value right after $ would be read as a parameter name; write ${name} or move the value")
	ErrInOperator     = errors.New("a value cannot be a here-document delimiter; write the delimiter literally")
)

// Context is the place of a value inserted at this point, or why no value may go there.
func (l *Lexer) Context() (Context, error) {
	switch {
	case l.escaped:
		return Context{}, ErrAfterBackslash
	case l.dollar:
		return Context{}, ErrAfterDollar
	case l.opPending || l.delimOpen:
		return Context{}, ErrInOperator
	}
	c := l.kind()
	if err := kindRefusal(c.Kind); err != nil {
		return c, err
	}
	return c, l.refusal()
}

// kind is the quoting the innermost frame gives a value here.
func (l *Lexer) kind() Context {
	c := Context{}
	for _, f := range l.stack {
		c = Context{Backticks: c.Backticks} // the innermost frame decides; backticks add up
		switch f.kind {
		case fBacktick:
			c.Backticks++
			c.Kind = Word
		case fTop, fCmdSubst:
			c.Kind = Word
		case fSingle:
			c.Kind = SingleQuoted
		case fDouble:
			c.Kind = DoubleQuoted
		case fParam:
			c.Kind, c.InParam = Word, true
			if f.inDouble {
				c.Kind = DoubleQuoted
			}
		case fArith:
			c.Kind = Arithmetic
		case fComment:
			c.Kind = Comment
		case fHeredoc:
			c.Kind, c.Delimiter, c.Line, c.StripTabs = Heredoc, f.doc.delim, f.doc.line.String(), f.doc.strip
			if f.doc.literal {
				c.Kind = HeredocLiteral
			}
		case fAnsiC:
			c.Kind = AnsiC
		}
	}
	return c
}

// Value records that the value of place c was inserted here. In a here-document, c.Suffix is
// filled in when its line ends.
func (l *Lexer) Value(c *Context) {
	l.wordStart = false
	if sc := l.command(); sc != nil {
		sc.hole(c)
	}
	if t := l.top(); t.kind == fHeredoc {
		t.doc.line.WriteString("\x00")
		t.doc.waiting = append(t.doc.waiting, c)
	}
}

// End closes the text: places on an unfinished last here-document line get their Suffix, and
// the last command judges the places a later word showed to be code (Context.Refused).
func (l *Lexer) End() {
	if t := l.top(); t.kind == fHeredoc {
		t.doc.settle(t.doc.line.String())
	}
	for i := len(l.stack) - 1; i >= 0; i-- {
		l.stack[i].sc.endCommand(false)
	}
}

// settle gives each waiting place the text after it on the finished line, where each wrote a
// NUL (Value).
func (d *heredoc) settle(line string) {
	parts := strings.Split(line, "\x00")[1:]
	for i, c := range d.waiting {
		c.Suffix = parts[i]
	}
	d.waiting = nil
}

// Text follows a chunk of literal shell text.
func (l *Lexer) Text(s string) {
	l.delimOpen = false
	for i := 0; i < len(s); i++ {
		i = l.step(s, i)
	}
}

// step consumes s[i] (and any characters it forms a token with) and returns the index of the
// last character consumed.
func (l *Lexer) step(s string, i int) int {
	c := s[i]
	if l.escaped {
		l.escaped = false
		l.wordStart = false
		l.noteHeredocChar(c)
		if sc := l.words(); sc != nil {
			sc.escaped(c)
		} else if sc := l.quoted(); sc != nil {
			sc.escaped(c)
		}
		return i
	}
	if l.dollar {
		l.dollar = false
		if j, ok := l.afterDollar(s, i); ok {
			return j
		}
	}
	if l.opPending {
		return l.delimiter(s, i)
	}
	if sc := l.quoted(); sc != nil {
		sc.add(c) // quoted text is part of the word: e'va'l is eval
	}
	switch l.top().kind {
	case fSingle:
		if c == '\'' {
			l.pop()
		}
		return i
	case fAnsiC:
		if c == '\\' {
			l.escaped = true
		} else if c == '\'' {
			l.pop()
		}
		return i
	case fComment:
		if c == '\n' {
			l.pop()
			l.endWords()
			l.wordStart = true
			l.newline()
		}
		return i
	case fDouble:
		return l.inDouble(s, i)
	case fArith:
		return l.inArith(s, i)
	case fHeredoc:
		return l.inHeredoc(s, i)
	}
	return l.inCommand(s, i)
}
