package search

import (
	"bytes"
	"strconv"
)

// contentWriter formats content-mode output for one file the way ripgrep does:
// "path:N:text" for matching lines, "path-N-text" for context lines, "--" between groups of
// lines that are not adjacent (only when context was asked for). It works as matches stream in,
// computing line numbers incrementally, and stops once its byte or line budget is spent.
type contentWriter struct {
	path          string
	data          []byte
	lineNums      bool
	before, after int
	maxBytes      int // stop after this many bytes of output
	maxLines      int // stop after this many output lines; 0 = no limit

	out      []byte
	lines    int
	full     bool
	printed  bool // a line has been printed
	nextLine int  // byte offset of the first line after the last printed one
	nextNo   int  // its line number
	pendAft  int  // after-context lines still owed to the last match
	cntPos   int  // line-number bookkeeping: cntNo newlines lie before cntPos
	cntNo    int
}

// match records the matching line [ls, le); it returns false when the budget is spent.
func (w *contentWriter) match(ls, le int) bool {
	w.cntNo += bytes.Count(w.data[w.cntPos:ls], []byte{'\n'})
	w.cntPos = ls
	no := w.cntNo + 1
	w.flushAfter(ls)
	// Walk back over up to `before` lines that were not printed yet.
	start, startNo := ls, no
	for k := 0; k < w.before && start > 0 && (!w.printed || start > w.nextLine); k++ {
		start = lineStart(w.data, start-1)
		startNo--
	}
	if w.printed && (w.before > 0 || w.after > 0) && start > w.nextLine {
		w.emitRaw("--")
	}
	for pos, n := start, startNo; pos < ls && !w.full; n++ {
		e := lineEnd(w.data, pos)
		w.emitLine(pos, e, n, '-')
		pos = e + 1
	}
	w.emitLine(ls, le, no, ':')
	w.pendAft = w.after
	return !w.full
}

// flushAfter prints owed after-context lines that start before limit.
func (w *contentWriter) flushAfter(limit int) {
	for w.pendAft > 0 && w.printed && w.nextLine < limit && w.nextLine < len(w.data) && !w.full {
		e := lineEnd(w.data, w.nextLine)
		w.emitLine(w.nextLine, e, w.nextNo, '-')
		w.pendAft--
	}
	w.pendAft = 0
}

// finish prints the after-context of the last match.
func (w *contentWriter) finish() {
	w.flushAfter(len(w.data))
}

func (w *contentWriter) emitLine(ls, le, no int, sep byte) {
	if w.full {
		return
	}
	w.out = append(w.out, w.path...)
	w.out = append(w.out, sep)
	if w.lineNums {
		w.out = strconv.AppendInt(w.out, int64(no), 10)
		w.out = append(w.out, sep)
	}
	w.out = appendDisplayLine(w.out, w.data[ls:le])
	w.out = append(w.out, '\n')
	w.printed = true
	w.nextLine, w.nextNo = le+1, no+1
	w.count()
}

func (w *contentWriter) emitRaw(s string) {
	if w.full {
		return
	}
	w.out = append(w.out, s...)
	w.out = append(w.out, '\n')
	w.count()
}

func (w *contentWriter) count() {
	w.lines++
	if len(w.out) >= w.maxBytes || (w.maxLines > 0 && w.lines >= w.maxLines) {
		w.full = true
	}
}

// appendDisplayLine appends a line for display: valid UTF-8, cut at MaxLineChars characters
// with a note, so one 2 MB line cannot fill the whole output.
func appendDisplayLine(out, line []byte) []byte {
	text, cut := CutRunes(line, MaxLineChars)
	out = append(out, text...)
	if cut {
		out = append(out, " … [line truncated: "...)
		out = strconv.AppendInt(out, int64(len(line)), 10)
		out = append(out, " bytes]"...)
	}
	return out
}
