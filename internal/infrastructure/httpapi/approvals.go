package httpapi

import (
	"errors"
	"net/http"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
)

// ApprovalList is GET /api/executions/{id}/approvals: the run's calls waiting for a decision,
// oldest first.
type ApprovalList struct {
	Approvals []approvals.Pending `json:"approvals"`
}

// ApprovalRequest is the body of POST /api/executions/{id}/approvals/{approval_id}. By is "api"
// (the default) or "page", which the live page sends so that the record tells the two apart.
type ApprovalRequest struct {
	Decision string `json:"decision"`
	By       string `json:"by,omitempty"`
}

// ApprovalDecided is the answer to a decision that was taken.
type ApprovalDecided struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	By       string `json:"by"`
}

// approvalsDir is run id's approvals directory, or false (answered 404) when the server has none.
func (s *Server) approvalsDir(w http.ResponseWriter, r *http.Request) (approvals.Dir, bool) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return approvals.Dir{}, false
	}
	if s.d.Approvals == nil {
		writeProblem(w, http.StatusNotFound, "this server does not serve approvals", "")
		return approvals.Dir{}, false
	}
	return s.d.Approvals(id), true
}

func (s *Server) listApprovals(w http.ResponseWriter, r *http.Request) {
	dir, ok := s.approvalsDir(w, r)
	if !ok {
		return
	}
	list, err := dir.List()
	if err != nil {
		s.writeError(w, err)
		return
	}
	for i := range list { // already masked by the holder; masked again with what this server knows
		list[i].Summary = s.mask(list[i].Summary)
		if s.d.Redactor != nil {
			list[i].Arguments = s.d.Redactor.Map(list[i].Arguments)
		}
	}
	writeJSON(w, http.StatusOK, ApprovalList{Approvals: list})
}

func (s *Server) decideApproval(w http.ResponseWriter, r *http.Request) {
	dir, ok := s.approvalsDir(w, r)
	if !ok {
		return
	}
	aid := r.PathValue("approval_id")
	var req ApprovalRequest
	if !readBody(w, r, &req) {
		return
	}
	if req.By == "" {
		req.By = activity.ApprovedByAPI
	}
	if req.By != activity.ApprovedByAPI && req.By != activity.ApprovedByPage {
		writeProblem(w, http.StatusBadRequest, `by must be "api" or "page" (or left out)`, "")
		return
	}
	err := dir.Decide(aid, req.Decision, req.By)
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, ApprovalDecided{ID: aid, Decision: req.Decision, By: req.By})
	case errors.Is(err, approvals.ErrBadDecider):
		writeProblem(w, http.StatusBadRequest, `send {"decision": "approve"} or {"decision": "deny"}`, "")
	case errors.Is(err, approvals.ErrBadID), errors.Is(err, approvals.ErrNotFound):
		writeProblem(w, http.StatusNotFound, "no pending approval "+strconvQuote(aid)+" in this run (GET .../approvals lists them)", "")
	case errors.Is(err, approvals.ErrDecided):
		writeProblem(w, http.StatusConflict, "this call was already decided: the first decision stands", "")
	default:
		s.writeError(w, err)
	}
}
