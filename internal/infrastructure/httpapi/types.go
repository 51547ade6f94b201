package httpapi

import (
	"time"
)

// Envelope is every successful answer's shape, as the reference awf wraps them: {"body": …}.
type Envelope[T any] struct {
	Body T `json:"body"`
}

// Problem is an error answer, RFC 9457 problem details (application/problem+json).
type Problem struct {
	Type   string `json:"type,omitempty"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	// Code is awf's error code (CATEGORY.SUB.SPECIFIC), when there is one.
	Code string `json:"code,omitempty"`
}

// WorkflowItem is one workflow of GET /api/workflows.
type WorkflowItem struct {
	Name        string `json:"name"`
	Scope       string `json:"scope"`
	Workflow    string `json:"workflow"`
	Version     string `json:"version"`
	Description string `json:"description"`
	// Problem says why the workflow cannot be loaded, when it cannot.
	Problem string `json:"problem,omitempty"`
}

// WorkflowList is GET /api/workflows.
type WorkflowList struct {
	Workflows []WorkflowItem `json:"workflows"`
}

// WorkflowDetail is GET /api/workflows/local/{name}: the workflow as loaded, its states by name
// with their kind, and the file's text.
type WorkflowDetail struct {
	Name        string                  `json:"name"`
	Version     string                  `json:"version"`
	Description string                  `json:"description"`
	Inputs      []WorkflowInput         `json:"inputs"`
	Initial     string                  `json:"initial"`
	States      map[string]WorkflowStep `json:"states"`
}

// WorkflowInput is one declared input.
type WorkflowInput struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Default     any    `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
}

// WorkflowStep is one state of a workflow detail.
type WorkflowStep struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	OnSuccess   string `json:"on_success,omitempty"`
	OnFailure   string `json:"on_failure,omitempty"`
}

// ValidateResult is POST …/validate: every error as a line, warnings apart.
type ValidateResult struct {
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// RunRequest is POST …/run.
type RunRequest struct {
	Inputs map[string]any `json:"inputs"`
}

// Accepted answers a run or a resume.
type Accepted struct {
	ExecutionID string `json:"execution_id"`
	Status      string `json:"status"`
}

// ResumeRequest is POST /api/executions/{id}/resume.
type ResumeRequest struct {
	InputOverrides map[string]any `json:"input_overrides"`
	FromStep       string         `json:"from_step"`
}

// Execution is one run as the executions endpoints show it.
type Execution struct {
	ExecutionID  string    `json:"execution_id"`
	WorkflowName string    `json:"workflow_name"`
	Status       string    `json:"status"`
	CurrentStep  string    `json:"current_step"`
	StartedAt    time.Time `json:"started_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	// Beyond the reference: tool calls so far and the run's error.
	ToolCalls int    `json:"tool_calls"`
	Error     string `json:"error,omitempty"`
}

// ExecutionList is GET /api/executions.
type ExecutionList struct {
	Executions []Execution `json:"executions"`
}

// HistoryEntry is one run of GET /api/history.
type HistoryEntry struct {
	ID           string     `json:"id"`
	WorkflowName string     `json:"workflow_name"`
	Status       string     `json:"status"`
	StartedAt    time.Time  `json:"started_at"`
	CompletedAt  *time.Time `json:"completed_at,omitempty"`
	DurationMS   int64      `json:"duration_ms"`
	ToolCalls    int        `json:"tool_calls"`
}

// History is GET /api/history.
type History struct {
	Entries []HistoryEntry `json:"entries"`
}

// HistoryStats is GET /api/history/stats, with the reference's field names.
type HistoryStats struct {
	TotalExecutions int   `json:"TotalExecutions"`
	SuccessCount    int   `json:"SuccessCount"`
	FailedCount     int   `json:"FailedCount"`
	CancelledCount  int   `json:"CancelledCount"`
	AvgDurationMs   int64 `json:"AvgDurationMs"`
}

// Empty is a request or answer with no body.
type Empty struct{}
