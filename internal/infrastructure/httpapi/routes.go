package httpapi

import (
	"net/http"
)

// route is one endpoint: the table below is both what the server registers and what the
// OpenAPI document describes, so the two cannot drift.
type route struct {
	method, path, summary string
	// status is the success status; req and resp are the request and answer types (nil: none),
	// resp already the type inside the envelope. media is the answer's type when not JSON.
	status    int
	req, resp any
	media     string
	query     []string
	handle    func(s *Server, w http.ResponseWriter, r *http.Request)
}

// routes is every endpoint of the server.
func routes() []route {
	return []route{
		{method: "GET", path: "/api/workflows", summary: "List the project's workflows (.awf/workflows)", status: 200, resp: WorkflowList{}, handle: (*Server).listWorkflows},
		{method: "GET", path: "/api/workflows/local/{name}", summary: "Show one workflow", status: 200, resp: WorkflowDetail{}, handle: (*Server).getWorkflow},
		{method: "POST", path: "/api/workflows/local/{name}/validate", summary: "Validate one workflow", status: 200, resp: ValidateResult{}, handle: (*Server).validateWorkflow},
		{method: "POST", path: "/api/workflows/local/{name}/run", summary: "Start a run of a workflow (asynchronous)", status: 202, req: RunRequest{}, resp: Accepted{}, handle: (*Server).runWorkflow},
		{method: "GET", path: "/api/executions", summary: "List runs, newest first", status: 200, resp: ExecutionList{}, query: []string{"workflow", "status", "limit"}, handle: (*Server).listExecutions},
		{method: "GET", path: "/api/executions/{id}", summary: "Show one run", status: 200, resp: Execution{}, handle: (*Server).getExecution},
		{method: "DELETE", path: "/api/executions/{id}", summary: "Cancel a run (idempotent)", status: 204, handle: (*Server).cancelExecution},
		{method: "POST", path: "/api/executions/{id}/resume", summary: "Resume a run, in the same id", status: 200, req: ResumeRequest{}, resp: Accepted{}, handle: (*Server).resumeExecution},
		{method: "GET", path: "/api/executions/{id}/events", summary: "The run's events as server-sent events until it ends", status: 200, media: "text/event-stream", handle: (*Server).events},
		{method: "GET", path: "/api/executions/{id}/report", summary: "The run's HTML report", status: 200, media: "text/html", handle: (*Server).report},
		{method: "GET", path: "/api/executions/{id}/approvals", summary: "The run's calls waiting for approval (mcp_proxy.intent.ask)", status: 200, resp: ApprovalList{}, handle: (*Server).listApprovals},
		{method: "POST", path: "/api/executions/{id}/approvals/{approval_id}", summary: "Approve or deny a held call; the first decision wins (409 after)", status: 200, req: ApprovalRequest{}, resp: ApprovalDecided{}, handle: (*Server).decideApproval},
		{method: "GET", path: "/api/history", summary: "Past runs with filters", status: 200, resp: History{}, query: []string{"workflow", "status", "since", "until", "limit"}, handle: (*Server).history},
		{method: "GET", path: "/api/history/stats", summary: "Counts and average duration of past runs", status: 200, resp: HistoryStats{}, query: []string{"workflow", "status", "since", "until"}, handle: (*Server).historyStats},
		{method: "GET", path: "/openapi.json", summary: "This document", status: 200, media: "application/json", handle: (*Server).openAPI},
		{method: "GET", path: "/{$}", summary: "The live page: runs with filters", status: 200, media: "text/html", query: []string{"workflow", "status"}, handle: (*Server).runsPage},
		{method: "GET", path: "/runs/{id}", summary: "The live page of one run", status: 200, media: "text/html", handle: (*Server).runPage},
		{method: "GET", path: "/assets/{file}", summary: "The live pages' script and style", status: 200, media: "text/plain", handle: (*Server).asset},
	}
}
