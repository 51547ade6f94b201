package fault

// Codes of the WORKFLOW category (exit 2). Each code is written here once; every other
// package names it through these constants. Codes are a public contract: scripts and editor
// integrations match on them, so a released code is never renamed.
const (
	// WORKFLOW.RUN
	WorkflowRunFailed = "WORKFLOW.RUN.FAILED"
)
