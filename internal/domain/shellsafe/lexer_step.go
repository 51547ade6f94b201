package shellsafe

import "strings"

// inCommand handles the command level and the frames that behave like it: $(…), `…` and ${…}.
func (l *Lexer) inCommand(s string, i int) int {
	c := s[i]
	top := l.top()
	atWordStart := l.wordStart
	l.wordStart = false
	if top.kind == fParam && c != '}' {
		top.param += string(c)
	}
	if sc := l.words(); sc != nil {
		if j, done := l.separator(sc, s, i, atWordStart); done {
			return j
		}
	}
	switch c {
	case '\\':
		l.escaped = true
	case '\'':
		if !(top.kind == fParam && top.inDouble) { // inside "${…}" a ' is an ordinary character
			l.push(frame{kind: fSingle})
		}
	case '"':
		l.push(frame{kind: fDouble})
	case '`':
		if top.kind == fBacktick {
			l.endWords()
			l.pop()
		} else {
			l.push(frame{kind: fBacktick})
			l.wordStart = true
		}
	case '$':
		l.dollar = true
	case '}':
		if top.kind == fParam {
			l.pop()
		}
	case '(':
		if top.kind == fCmdSubst {
			top.depth++
		}
		l.wordStart = true
	case ')':
		if top.kind == fCmdSubst {
			if top.depth == 0 {
				l.endWords()
				l.pop()
			} else {
				top.depth--
			}
		}
		l.wordStart = true
	case '#':
		if atWordStart && top.kind != fParam {
			l.push(frame{kind: fComment})
		}
	case '\n':
		l.wordStart = true
		if top.kind != fParam {
			l.newline()
		}
	case ' ', '\t', ';', '&', '|', '>':
		l.wordStart = true
	case '<':
		l.wordStart = true
		return l.redirect(s, i)
	}
	return i
}

// words is the simple command of the top frame when it is a command level, else nil.
func (l *Lexer) words() *simple {
	switch t := l.top(); t.kind {
	case fTop, fCmdSubst, fBacktick:
		return &t.sc
	}
	return nil
}

// endWords ends the simple command of the top frame as its frame closes.
func (l *Lexer) endWords() {
	if sc := l.words(); sc != nil {
		sc.endCommand(false)
	}
}

// separator follows the words of a simple command: it ends words and commands, adds other
// characters to the current word, and reads (( as an arithmetic command. done means the
// characters up to the returned index are consumed.
func (l *Lexer) separator(sc *simple, s string, i int, atWordStart bool) (int, bool) {
	c := s[i]
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	switch {
	case c == ' ' || c == '\t' || c == '<' || c == '>':
		sc.endWord()
		if c == '<' || c == '>' {
			sc.redirect = redirectFile
			if strings.HasPrefix(s[i:], "<<<") {
				sc.redirect = redirectHereString
			}
		}
		if (c == '<' || c == '>') && (next == '&' || next == '|') {
			l.wordStart = true
			return i + 1, true
		}
	case c == '(' && next == '(' && atWordStart:
		sc.endWord()
		l.push(frame{kind: fArith, closer: ')'})
		return i + 1, true
	case sc.test && strings.IndexByte("\n&|()", c) >= 0:
		sc.endWord()
	case c == '\n' || c == ';' || c == '(' || c == ')' || c == '&' && next == '&' || c == '|' && next == '|':
		sc.endCommand(false)
	case c == '&' || c == '|':
		sc.endCommand(c == '|')
	case c == '#' && atWordStart:
	case c == '`' && l.top().kind == fBacktick: // the closing backtick ends the last word
	default:
		sc.add(c)
	}
	return i, false
}

// redirect recognises << and <<- (a here-document) but not <<< (a here-string).
func (l *Lexer) redirect(s string, i int) int {
	if i+1 >= len(s) || s[i+1] != '<' {
		return i
	}
	if i+2 < len(s) && s[i+2] == '<' {
		return i + 2
	}
	l.opPending = true
	l.stripPending = i+2 < len(s) && s[i+2] == '-'
	if l.stripPending {
		return i + 2
	}
	return i + 1
}

// delimiter reads a here-document's delimiter word after << or <<-.
func (l *Lexer) delimiter(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == len(s) {
		return i // the delimiter may come with the next chunk
	}
	start := i
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
			continue
		}
		if c == '\\' {
			i++
			continue
		}
		if strings.IndexByte(" \t\n;&|<>()", c) >= 0 {
			break
		}
	}
	end := min(i, len(s))
	word := s[start:end]
	l.delimOpen = i >= len(s)
	doc := &heredoc{
		delim:   strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(word),
		strip:   l.stripPending,
		literal: strings.ContainsAny(word, `'"\`),
	}
	l.pending = append(l.pending, doc)
	if sc := l.words(); sc != nil {
		sc.docs = append(sc.docs, doc)
		sc.redirect = noRedirect // the delimiter is read here, not as a word
	}
	l.opPending = false
	return end - 1
}

// afterDollar handles the character after an unquoted $: $( $(( ${ and $'.
func (l *Lexer) afterDollar(s string, i int) (int, bool) {
	top := l.top()
	switch s[i] {
	case '(':
		if i+1 < len(s) && s[i+1] == '(' {
			l.push(frame{kind: fArith, closer: ')'})
			return i + 1, true
		}
		l.push(frame{kind: fCmdSubst})
		l.wordStart = true
		return i, true
	case '[':
		l.push(frame{kind: fArith, closer: ']'})
		return i, true
	case '{':
		inDouble := top.kind == fDouble || top.kind == fHeredoc || (top.kind == fParam && top.inDouble)
		l.push(frame{kind: fParam, inDouble: inDouble})
		return i, true
	case '\'':
		// $'…' is ANSI-C quoting in bash (where \' does not close it) and a $ before '…' in dash.
		if top.kind != fDouble && top.kind != fHeredoc && !(top.kind == fParam && top.inDouble) {
			l.push(frame{kind: fAnsiC})
			return i, true
		}
	}
	return i, false
}

func (l *Lexer) inDouble(s string, i int) int {
	switch s[i] {
	case '\\':
		l.escaped = true
	case '"':
		l.pop()
	case '`':
		l.push(frame{kind: fBacktick})
		l.wordStart = true
	case '$':
		l.dollar = true
	}
	return i
}

func (l *Lexer) inArith(s string, i int) int {
	top := l.top()
	open := byte('(')
	if top.closer == ']' {
		open = '['
	}
	switch s[i] {
	case open:
		top.depth++
	case top.closer:
		if top.depth > 0 {
			top.depth--
			return i
		}
		closer := top.closer
		l.pop()
		if closer == ')' && i+1 < len(s) && s[i+1] == ')' {
			return i + 1
		}
	case '$':
		l.dollar = true
	}
	return i
}

func (l *Lexer) inHeredoc(s string, i int) int {
	c := s[i]
	doc := l.top().doc
	if c == '\n' {
		line := doc.line.String()
		doc.line.Reset()
		doc.settle(line)
		if doc.strip {
			line = strings.TrimLeft(line, "\t")
		}
		if line == doc.delim {
			l.pop()
			l.newline()
		}
		return i
	}
	doc.line.WriteByte(c)
	if doc.literal {
		return i
	}
	switch c {
	case '\\':
		l.escaped = true
	case '`':
		l.push(frame{kind: fBacktick})
		l.wordStart = true
	case '$':
		l.dollar = true
	}
	return i
}

// noteHeredocChar keeps a here-document's current line whole when a character was consumed as
// escaped.
func (l *Lexer) noteHeredocChar(c byte) {
	if t := l.top(); t.kind == fHeredoc && c != '\n' {
		t.doc.line.WriteByte(c)
	}
}

// newline starts the next pending here-document body, if a command line just ended.
func (l *Lexer) newline() {
	if len(l.pending) == 0 {
		return
	}
	doc := l.pending[0]
	l.pending = l.pending[1:]
	l.push(frame{kind: fHeredoc, doc: doc})
}
