package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"
	"unicode/utf8"

	domact "github.com/awf-dev/awf/internal/domain/activity"
)

// printActivityTable prints records as a table. Every field is escaped (printable) before it is
// shortened or aligned: a tool name or an error is whatever a model sent, and a newline, a tab
// or an escape sequence in it must not forge a row, shift a column or repaint the terminal.
func printActivityTable(w io.Writer, recs []domact.Record) {
	if len(recs) == 0 {
		fmt.Fprintln(w, "no activity records")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tRUN\tSTEP\tTOOL\tSOURCE\tINTENT\tDECISION\tOUTCOME\tDURATION\tERROR")
	for _, r := range recs {
		cells := []string{
			short(printable(r.ID), 12), r.Time.Local().Format(time.TimeOnly), dash(printable(r.RunID)), dash(printable(r.Step)),
			toolCell(r), printable(string(r.Source)), dash(intentCell(r)), dash(decisionCell(r)),
			printable(string(r.Outcome)), (time.Duration(r.DurationMS * float64(time.Millisecond))).Round(time.Microsecond).String(),
			short(errorCell(r), 80),
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	_ = tw.Flush()
}

// intentCell is the effective variant (what --intent-type filters on), with the declared one
// when the tool's own variant is stronger: "destructive (declared read)".
func intentCell(r domact.Record) string {
	eff := printable(string(r.Effective()))
	if decl := printable(string(r.Intent.Variant)); decl != "" && decl != eff {
		return eff + " (declared " + decl + ")"
	}
	return eff
}

// errorCell is the error on one line, led by its code.
func errorCell(r domact.Record) string {
	msg := printable(oneLine(r.Error))
	if r.Code != "" {
		if msg == "" {
			return printable(r.Code)
		}
		return printable(r.Code) + ": " + msg
	}
	return msg
}

// printable escapes every character that is not safe to show in a table cell: control
// characters (C0, DEL, C1, so tabs, newlines and the ESC of terminal sequences), Unicode format
// characters (bidirectional overrides, zero-width characters), and invalid UTF-8. Each is written
// as a Go escape (\n, \t, \x1b, \u202e), so the cell shows what was recorded instead of obeying it.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
