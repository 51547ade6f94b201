package main

import (
	"strings"
)

// visible makes text from a model, a command, a tool or a plugin safe to print on a terminal
// line: like printable, it writes control characters, Unicode format characters and invalid
// UTF-8 as Go escapes (so an ESC shows as \x1b and cannot clear the screen, set the clipboard
// with OSC 52 or move the cursor, and a CR cannot overwrite a line with a forged "✓ … success"),
// but it keeps tabs, which output uses for layout and which cannot forge anything.
func visible(s string) string {
	if !strings.Contains(s, "\t") {
		return printable(s)
	}
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = printable(p)
	}
	return strings.Join(parts, "\t")
}

// visibleLines is visible for text whose newlines are its layout (an error with its hint over
// several lines, a diagnostic): each line is escaped and the newlines are kept, so a server's
// message, stderr or tool name inside it prints as text and cannot drive the terminal.
func visibleLines(s string) string {
	if !strings.Contains(s, "\n") {
		return visible(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = visible(l)
	}
	return strings.Join(lines, "\n")
}
