package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Excerpt bounds: a report stays small and readable whatever a step printed.
const (
	// OutputExcerpt is how many bytes of a step's output or stderr a summary shows.
	OutputExcerpt = 1200
	// ArgsExcerpt is how many bytes of a call's arguments the table shows.
	ArgsExcerpt = 160
	// CellExcerpt is how many bytes of any other one-line value (an error) are shown.
	CellExcerpt = 300
)

// text masks secrets and makes control characters visible, so a tool name or an error carrying
// ANSI escapes or line breaks cannot restyle or reshape the page.
type text struct {
	red *redact.Redactor
}

func newText(r *redact.Redactor) text { return text{red: r} }

// addWorkflowSecrets masks what the run masked: the variables agent steps keep their keys in,
// the values of inputs whose names mark them secret, and the mask set the run kept in its
// record (runrecord.Record.Masked), which holds what was masked whether or not the variables
// are set now.
func (t text) addWorkflowSecrets(w *workflow.Workflow, inputs map[string]any, kept []string) {
	if t.red == nil {
		return
	}
	t.red.AddNames(w.KeyVariables()...)
	t.red.AddInputs(inputs)
	t.red.AddMasks(kept...)
}

// line is a one-line cell: masked, line breaks shown as ↵, other control characters as \xNN,
// cut to max bytes.
func (t text) line(s string, max int) string {
	return clip(visible(t.red.String(s), true), max)
}

// block is a multi-line excerpt: masked, line breaks kept, control characters shown.
func (t text) block(s string, max int) string {
	return clip(visible(t.red.String(s), false), max)
}

// value renders a decoded JSON value (an input, a call's arguments) as one masked line.
func (t text) value(v any, max int) string {
	if s, ok := v.(string); ok {
		return t.line(s, max)
	}
	b, err := json.Marshal(t.red.Value(v))
	if err != nil {
		return t.line(fmt.Sprint(v), max)
	}
	return t.line(string(b), max)
}

// visible replaces control characters by a visible form. With oneLine, \n and \r\n become " ↵ ".
func visible(s string, oneLine bool) string {
	if !strings.ContainsFunc(s, isControl) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && oneLine:
			b.WriteString(" ↵ ")
		case r == '\r' && oneLine && strings.HasPrefix(s[i:], "\r\n"):
		case r == '\t' && oneLine:
			b.WriteByte(' ')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// clip cuts s to at most max bytes on a rune boundary and says how much was left out.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}
