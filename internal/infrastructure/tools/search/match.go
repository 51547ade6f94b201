package search

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// matcher finds the lines of a buffer that match a pattern. It is built for speed on large
// trees (ripgrep's approach, in Go): a literal the pattern requires is found with the
// SIMD-backed bytes.Index and the regexp only confirms the one line around each hit; a pattern
// that is a plain literal skips the regexp altogether; without a usable literal the regexp runs
// once over the whole buffer, never line by line. Line numbers are computed only for matches.
type matcher struct {
	re        *regexp.Regexp // the compiled pattern, (?m) so ^ and $ are line anchors
	find      *litFinder     // required literals; nil when none could be extracted
	exact     bool           // every finder hit is a match (plain case-sensitive literal)
	multiline bool           // matches may span lines
	lineWise  bool           // run re per line (the pattern uses \A or \z)
	window    int            // bytes of whole lines given to one regexp call (see scanWindow)
}

// compileMatcher compiles a Grep pattern with ripgrep's conventions: ^ and $ match at line
// boundaries, -i folds case (Unicode simple folding, like the regexp engine), multiline lets a
// match span lines and makes "." match newlines (rg -U --multiline-dotall).
func compileMatcher(pattern string, ignoreCase, multiline bool) (*matcher, error) {
	flags := "(?m"
	if ignoreCase {
		flags += "i"
	}
	if multiline {
		flags += "s"
	}
	// The pattern as written is checked first, so that an error quotes what the model sent.
	if _, err := syntax.Parse(flags+")"+pattern, syntax.Perl); err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v (Go RE2 syntax: no look-around or back-references; escape literal characters such as \\{ \\( \\.)", pattern, regexpErrorDetail(err))
	}
	full := flags + ")" + unicodeClasses(pattern)
	re, err := regexp.Compile(full)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", pattern, regexpErrorDetail(err))
	}
	tree, err := syntax.Parse(full, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", pattern, err)
	}
	tree = tree.Simplify()
	m := &matcher{re: re, multiline: multiline, lineWise: usesTextAnchors(tree), window: scanWindow(tree)}
	if set := requiredLiterals(tree); set != nil {
		m.find = newLitFinder(set.lits, set.fold)
		m.exact = tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0 && !set.fold && len(set.lits) == 1 &&
			!strings.Contains(set.lits[0], "\n")
	}
	return m, nil
}

// scanWindow sizes the input of one whole-buffer regexp call: small enough for the regexp
// package's bounded backtracker (inputs up to 256 Ki bits / program length), which scans faster
// than its NFA, yet no larger than 2 KiB because the backtracker clears state proportional to
// its input on every call, which dominates when matches are dense. Measured on GOROOT/src:
// 2 KiB halves the time of dense no-literal patterns compared with one call per buffer.
func scanWindow(tree *syntax.Regexp) int {
	const most = 2 << 10
	prog, err := syntax.Compile(tree)
	if err != nil || len(prog.Inst) == 0 {
		return most
	}
	return min(max(256*1024/len(prog.Inst)-2, 256), most)
}

func regexpErrorDetail(err error) string {
	var se *syntax.Error
	if e, ok := err.(*syntax.Error); ok {
		se = e
		return fmt.Sprintf("%s in %q", se.Code, se.Expr)
	}
	return err.Error()
}

// usesTextAnchors reports \A or \z, which mean "start/end of the line" to a per-line search but
// "start/end of the file" to a whole-buffer one; such patterns are run line by line.
func usesTextAnchors(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, s := range re.Sub {
		if usesTextAnchors(s) {
			return true
		}
	}
	return false
}

// matchLines calls emit with the [start, end) byte range (end excludes the '\n') of every line
// of buf that holds a match, in order, until emit returns false.
func (m *matcher) matchLines(buf []byte, emit func(ls, le int) bool) {
	switch {
	case m.multiline:
		m.matchMultiline(buf, emit)
	case m.lineWise:
		for pos := 0; pos < len(buf); {
			le := lineEnd(buf, pos)
			if m.re.Match(buf[pos:le]) && !emit(pos, le) {
				return
			}
			pos = le + 1
		}
	case m.find != nil:
		m.find.reset()
		for pos := 0; pos < len(buf); {
			i := m.find.next(buf, pos)
			if i < 0 {
				return
			}
			ls, le := lineStart(buf, i), lineEnd(buf, i)
			if (m.exact || m.re.Match(buf[ls:le])) && !emit(ls, le) {
				return
			}
			pos = le + 1
		}
	default:
		for pos := 0; pos < len(buf); {
			// Search a window of whole lines: a line match never crosses a line, and a small
			// input lets the regexp package use its backtracker instead of the slower NFA.
			end := len(buf)
			if pos+m.window < len(buf) {
				end = lineEnd(buf, pos+m.window)
			}
			loc := m.re.FindIndex(buf[pos:end])
			if loc == nil {
				pos = end + 1
				continue
			}
			s, e := pos+loc[0], pos+loc[1]
			if s == len(buf) && buf[len(buf)-1] == '\n' {
				return // an empty match after the final newline is not on a line
			}
			ls, le := lineStart(buf, s), lineEnd(buf, s)
			// A match that stays on its line is a line match; one that crossed a newline is
			// re-checked on its first line alone, since a line match can never cross lines.
			if (e <= le || m.re.Match(buf[ls:le])) && !emit(ls, le) {
				return
			}
			pos = le + 1
		}
	}
}

// matchMultiline reports every line touched by a match; matches may span lines.
func (m *matcher) matchMultiline(buf []byte, emit func(ls, le int) bool) {
	if m.find != nil {
		m.find.reset()
		if m.find.next(buf, 0) < 0 {
			return
		}
	}
	next := 0 // first byte of the first line not yet emitted
	for pos := 0; pos <= len(buf); {
		loc := m.re.FindIndex(buf[pos:])
		if loc == nil {
			return
		}
		s, e := pos+loc[0], pos+loc[1]
		if s == len(buf) && len(buf) > 0 && buf[len(buf)-1] == '\n' {
			return // an empty match after the final newline is not on a line
		}
		last := s
		if e > s {
			last = e - 1
		}
		for ls := max(lineStart(buf, s), next); ls <= last; {
			le := lineEnd(buf, ls)
			if !emit(ls, le) {
				return
			}
			next = le + 1
			ls = le + 1
		}
		if e > s {
			pos = e
		} else {
			pos = s + 1
		}
	}
}

func lineStart(buf []byte, i int) int { return bytes.LastIndexByte(buf[:i], '\n') + 1 }

func lineEnd(buf []byte, i int) int {
	if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(buf)
}

// litSet is a set of literals at least one of which occurs in every match.
type litSet struct {
	lits []string
	fold bool // compare ASCII letters case-insensitively
}

const maxLits = 16

// requiredLiterals extracts from a parsed pattern literals every match must contain: the best
// literal of a concatenation, the union of an alternation's branches, the body of a group or a
// repetition that occurs at least once. nil means none could be found.
func requiredLiterals(re *syntax.Regexp) *litSet {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return &litSet{lits: []string{string(re.Rune)}}
		}
		if s := foldSafe(string(re.Rune)); s != "" {
			return &litSet{lits: []string{s}, fold: true}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *litSet
		for _, s := range re.Sub {
			if c := requiredLiterals(s); c != nil && c.score() > best.score() {
				best = c
			}
		}
		return best
	case syntax.OpAlternate:
		u := &litSet{}
		for _, s := range re.Sub {
			c := requiredLiterals(s)
			if c == nil || len(u.lits)+len(c.lits) > maxLits {
				return nil
			}
			u.lits = append(u.lits, c.lits...)
			u.fold = u.fold || c.fold
		}
		return u
	}
	return nil
}

// score ranks candidate sets: longer shortest literal first, then fewer literals.
func (s *litSet) score() int {
	if s == nil || len(s.lits) == 0 {
		return -1
	}
	short := len(s.lits[0])
	for _, l := range s.lits {
		short = min(short, len(l))
	}
	if short == 0 {
		return -1
	}
	return short*64 - len(s.lits)
}

// foldSafe returns the longest run of s that a case-insensitive match must contain byte for byte
// up to ASCII case: ASCII characters other than k and s, whose fold orbits include the
// non-ASCII Kelvin sign and long s.
func foldSafe(s string) string {
	best, cur := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] >= 0x80 || strings.IndexByte("kKsS", s[i]) >= 0 {
			if i-cur > len(best) {
				best = s[cur:i]
			}
			cur = i + 1
		}
	}
	return best
}
