// Package fault holds awf's coded errors. Every error a user can act on carries a stable code of
// the form CATEGORY.SUB.SPECIFIC, and the category alone decides the process exit code, so that
// scripts wrapping awf can branch on the exit status without parsing messages.
package fault

import (
	"errors"
	"fmt"
	"strings"
)

// Category is the first segment of a code. It selects the exit code.
type Category string

// The categories awf uses; docs/design.md#exit-codes maps each to an exit code.
const (
	User      Category = "USER"      // bad input, validation, config: exit 1
	Workflow  Category = "WORKFLOW"  // the workflow ended in a failure state: exit 2
	Execution Category = "EXECUTION" // a process or endpoint failed: exit 3
	System    Category = "SYSTEM"    // awf itself failed: exit 4
	Interrupt Category = "INTERRUPT" // the user pressed Ctrl+C: exit 130
)

// Exit codes, docs/design.md#exit-codes.
const (
	ExitOK          = 0
	ExitUser        = 1
	ExitWorkflow    = 2
	ExitExecution   = 3
	ExitSystem      = 4
	ExitInterrupted = 130
)

// Error is a coded error. Message says what went wrong; Hint says what to do about it.
type Error struct {
	Code    string
	Message string
	Hint    string
	Pos     Position
	Err     error
}

// New returns a coded error with a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns a coded error that keeps err for errors.Is/As.
func Wrap(err error, code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// WithHint returns e with a hint attached; it lets call sites read as one expression.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// At returns e located at pos.
func (e *Error) At(pos Position) *Error {
	e.Pos = pos
	return e
}

// Error renders "file:line:col: [CODE] message: cause (hint: …)", leaving out what is unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.Valid() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString("[")
	b.WriteString(e.Code)
	b.WriteString("] ")
	b.WriteString(e.Message)
	if e.Err != nil && !strings.Contains(e.Message, e.Err.Error()) {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap exposes the cause for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// CategoryOf returns the category of a code (UserXY → User).
func CategoryOf(code string) Category {
	head, _, _ := strings.Cut(code, ".")
	return Category(head)
}

// ExitCode maps any error to the process exit code. Errors without a code are awf's own
// failures (exit 4): an uncoded error reaching the top is a bug to be given a code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var fe *Error
	if !errors.As(err, &fe) {
		return ExitSystem
	}
	switch CategoryOf(fe.Code) {
	case User:
		return ExitUser
	case Workflow:
		return ExitWorkflow
	case Execution:
		return ExitExecution
	case Interrupt:
		return ExitInterrupted
	default:
		return ExitSystem
	}
}

// CodeOf returns the code of err, or "" when it carries none.
func CodeOf(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return ""
}
