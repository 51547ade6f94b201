package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// hostile is what a server could put in a tool name, a description or its stderr to take over
// a terminal: a clear screen, a clipboard write (OSC 52), a carriage return that overwrites the
// line with a forged status, a bidi override, a zero-width space.
const hostile = "\x1b[2J\x1b]52;c;ZWNobyBwd25lZA==\x07clip\r✓ everything  running  (forged)\u202egnp.exe\u200b"

// rawControl reports whether s holds a byte or rune that drives a terminal.
func rawControl(s string) bool {
	return strings.ContainsAny(s, "\x1b\r\x07\u202e\u200b")
}

// `awf plugins list` prints every plugin's and server's text escaped: names, version,
// description, error and each operation's name and description.
func TestPrintPluginsEscapesServerText(t *testing.T) {
	rows := []pluginRow{{Name: "p", State: "failed", Command: "/bin/x" + hostile, Version: hostile, Description: hostile, Error: "start failed; its last stderr: " + hostile,
		Operations: []operationRow{{Name: "op" + hostile, Tool: "p_op" + hostile, CallWith: tool.VariantRead, Description: "Fine. " + hostile}}}}
	var b bytes.Buffer
	printPlugins(&b, rows)
	out := b.String()
	if rawControl(out) {
		t.Fatalf("raw control characters in:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, `\r✓ everything`) {
		t.Errorf("the escaped text is not shown:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "✓") {
			t.Errorf("a forged line starts a row: %q", line)
		}
	}
}

// An error printed by awf keeps its lines (a hint, a list of drifts) but escapes each.
func TestVisibleLinesKeepsNewlinesOnly(t *testing.T) {
	got := visibleLines("first " + hostile + "\n  second\tcol\n" + hostile)
	if rawControl(got) || strings.Count(got, "\n") != 2 || !strings.Contains(got, "\tcol") {
		t.Errorf("visibleLines = %q", got)
	}
	if visibleLines(errors.New("plain").Error()) != "plain" {
		t.Error("plain text changed")
	}
}
