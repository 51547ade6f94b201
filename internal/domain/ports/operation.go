package ports

import "context"

// OperationInput describes one input of a built-in or plugin operation, so validation can
// refuse a missing or unknown input before the run.
type OperationInput struct {
	Name string
	// Type is string, integer, number, boolean, array or object.
	Type        string
	Required    bool
	Description string
}

// OperationSpec is what an `operation:` state may call, with the reference awf's names
// (`http.request`, `<plugin>.<operation>`).
type OperationSpec struct {
	Name        string
	Description string
	Inputs      []OperationInput
	// Outputs are the keys of OperationResult.Outputs, interpolable as states.<s>.<Key>.
	Outputs []string
}

// OperationResult is one finished operation. A failed operation (Success false) is a result:
// the state follows on_failure; only a broken provider returns an error.
type OperationResult struct {
	Success bool
	Outputs map[string]any
	// Error says why the operation failed, for the user.
	Error string
}

// OperationRunner runs named operations with already-interpolated inputs.
type OperationRunner interface {
	// Specs lists the operations this runner serves.
	Specs() []OperationSpec
	// Run executes one. It honours ctx (a step timeout or Ctrl+C ends it at once).
	Run(ctx context.Context, name string, inputs map[string]any) (OperationResult, error)
}
