package fault

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Position is a place in a source file, 1-based as editors count.
type Position struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Valid reports whether the position names at least a file.
func (p Position) Valid() bool { return p.File != "" || p.Line > 0 }

// String renders file:line:col, or just the file when no line is known.
func (p Position) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	return p.File
}

// Severity tells errors (which stop a run) from warnings (which are printed and let it go on).
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one problem found in a file. Validation collects all of them in one pass so a
// user fixes a file in one round instead of one error at a time.
type Diagnostic struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"`
	Severity Severity `json:"-"`
	Position
}

// String renders the diagnostic as a compiler would: position, severity, message, code, hint.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Position.Valid() {
		b.WriteString(d.Position.String())
		b.WriteString(": ")
	}
	b.WriteString(string(d.Severity))
	b.WriteString(": ")
	b.WriteString(d.Message)
	b.WriteString(" [")
	b.WriteString(d.Code)
	b.WriteString("]")
	if d.Hint != "" {
		b.WriteString("\n    hint: ")
		b.WriteString(d.Hint)
	}
	return b.String()
}

// Diagnostics is a list of problems with helpers to add and query them.
type Diagnostics []Diagnostic

// Errorf adds an error.
func (ds *Diagnostics) Errorf(pos Position, code, hint, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint, Severity: SeverityError, Position: pos})
}

// Warnf adds a warning.
func (ds *Diagnostics) Warnf(pos Position, code, hint, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint, Severity: SeverityWarning, Position: pos})
}

// Errors returns only the errors.
func (ds Diagnostics) Errors() Diagnostics { return ds.filter(SeverityError) }

// Warnings returns only the warnings.
func (ds Diagnostics) Warnings() Diagnostics { return ds.filter(SeverityWarning) }

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool { return len(ds.Errors()) > 0 }

func (ds Diagnostics) filter(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders diagnostics by file, line and column, as a compiler prints them.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}

// InvalidError wraps the diagnostics of a file that failed validation so it can travel as an
// error (exit 1) while callers that want every diagnostic can still get them.
type InvalidError struct {
	Workflow    string
	Diagnostics Diagnostics
}

// Error lists every error diagnostic, one per line, after a count.
func (e *InvalidError) Error() string {
	errs := e.Diagnostics.Errors()
	lines := []string{fmt.Sprintf("workflow %q is invalid: %d error(s)", e.Workflow, len(errs))}
	for _, d := range errs {
		lines = append(lines, d.String())
	}
	return strings.Join(lines, "\n")
}

// AsError turns the diagnostics into a coded error, or nil when there is no error among them.
func (ds Diagnostics) AsError(workflow string) error {
	if !ds.HasErrors() {
		return nil
	}
	return &Error{Code: UserWorkflowInvalid, Message: "workflow is invalid", Err: &InvalidError{Workflow: workflow, Diagnostics: ds}}
}
