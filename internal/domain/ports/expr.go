package ports

// ExprKind is what an expression must evaluate to: `when`, `break_when` and `while` are
// conditions; a dynamic `max_iterations` is a count.
type ExprKind int

// Expression kinds.
const (
	ExprBool ExprKind = iota
	ExprInt
)

// ExprRef is one name an expression reads, such as states.build.ExitCode, with the byte offset
// where it starts in the expression. Validation checks each against the workflow (does state
// "build" exist, is input "n" declared) so a typo is caught before the run, not in the middle of it.
type ExprRef struct {
	Path   []string
	Offset int
}

// Expression is a compiled workflow expression. Compiling once at validate time means a run
// never meets a syntax error, and evaluating a compiled program per transition stays cheap.
type Expression interface {
	// Source is the expression as written.
	Source() string
	// Refs lists the namespaced names the expression reads, in source order.
	Refs() []ExprRef
	// Bool evaluates a condition over vars (the namespaces inputs, states, env, workflow, loop,
	// error, context). A missing state or key is an error the caller decides about.
	Bool(vars map[string]any) (bool, error)
	// Int evaluates a count; a fractional, infinite or non-numeric result is an error.
	Int(vars map[string]any) (int, error)
}

// ExprCompiler compiles expressions in the language the reference awf uses, so users'
// expressions keep their meaning.
type ExprCompiler interface {
	// Compile checks syntax, names and result type. Its error is an *ExprError.
	Compile(src string, kind ExprKind) (Expression, error)
}

// ExprError is a compile or evaluation problem with its place inside the expression, so the
// caller can point at file:line:col (the value's position plus Line/Column).
type ExprError struct {
	// Line and Column are 1-based within the expression; zero when unknown.
	Line, Column int
	Message      string
}

// Error implements error.
func (e *ExprError) Error() string { return e.Message }
