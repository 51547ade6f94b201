package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	domact "github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Read":                "Read",
		"héllo wörld":         "héllo wörld",
		"a\nb":                `a\nb`,
		"a\tb\r":              `a\tb\r`,
		"\x1b[31mred\x1b[0m":  `\x1b[31mred\x1b[0m`,
		"evil\u202etxt.exe":   `evil\u202etxt.exe`,
		"zero\u200bwidth":     `zero\u200bwidth`,
		"bad\xffutf8":         `bad\xffutf8`,
		"c1\u0085next\u007f!": `c1\u0085next\x7f!`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// The probe: a tool name with a newline and ANSI escapes printed as a forged row.
func TestActivityTableCannotBeForged(t *testing.T) {
	forged := "Read\nffffffffffff  12:00:00  run  step  Write  builtin  read  allow  success  1ms  \x1b[2K\x1b[1A"
	recs := []domact.Record{
		{ID: "0123456789abcdef", Time: time.Now(), Tool: forged, Source: tool.BuiltinSource, Outcome: domact.OutcomeError,
			Error: "line1\nline2\x1b]0;title\x07", Code: "USER.TOOL.NOT_FOUND"},
		{ID: "fedcba9876543210", Time: time.Now(), Tool: "Bash", Source: tool.BuiltinSource, Outcome: domact.OutcomeSuccess,
			Intent: tool.Intent{Variant: tool.VariantRead, Decision: "warn"}, ToolVariant: tool.VariantDestructive},
	}
	var buf bytes.Buffer
	printActivityTable(&buf, recs)
	out := buf.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and 2 rows, got %d lines:\n%s", len(lines), out)
	}
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("raw control characters reached the terminal: %q", out)
	}
	if !strings.Contains(lines[1], `Read\nffff`) || !strings.Contains(lines[1], "USER.TOOL.NOT_FOUND: line1 line2") {
		t.Errorf("row 1: %q", lines[1])
	}
	if !strings.Contains(lines[2], "destructive (declared read)") {
		t.Errorf("row 2 does not show the effective variant: %q", lines[2])
	}
}
