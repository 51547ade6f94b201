package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/awf-dev/awf/internal/application/executions"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// execution is a run summary in the API's shape.
func (s *Server) execution(r usecase.RunSummary) Execution {
	return Execution{ExecutionID: r.ID, WorkflowName: r.Workflow, Status: executions.APIStatus(r.Status), CurrentStep: r.Current,
		StartedAt: r.Started.UTC(), UpdatedAt: r.Started.Add(r.Duration).UTC(), ToolCalls: r.ToolCalls, Error: s.mask(r.Error)}
}

func (s *Server) listExecutions(w http.ResponseWriter, r *http.Request) {
	f, ok := historyFilter(w, r)
	if !ok {
		return
	}
	runs, err := s.runs(f)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.addMasks(runs...)
	out := ExecutionList{Executions: []Execution{}}
	for _, run := range runs {
		out.Executions = append(out.Executions, s.execution(run))
	}
	writeJSON(w, http.StatusOK, out)
}

// addMasks adds what the runs masked to the redactor, at once (each call rebuilds its table),
// so nothing a run masked shows in clear once the variables that named it are unset.
func (s *Server) addMasks(runs ...usecase.RunSummary) {
	var masked []string
	for _, r := range runs {
		masked = append(masked, r.Masked...)
	}
	if s.d.Redactor != nil && len(masked) > 0 {
		s.d.Redactor.AddMasks(masked...)
	}
}

func (s *Server) getExecution(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return
	}
	run, err := s.d.Runs.Status(id)
	if err != nil {
		writeProblem(w, http.StatusNotFound, "execution not found: "+id, fault.UserRunNotFound)
		return
	}
	s.addMasks(run)
	writeJSON(w, http.StatusOK, s.execution(run))
}

func (s *Server) cancelExecution(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return
	}
	if err := s.d.Exec.Cancel(id); err != nil && !executions.IsNotFound(err) {
		s.writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent) // idempotent: an unknown or ended run is no error
}

func (s *Server) resumeExecution(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return
	}
	var req ResumeRequest
	if !readBody(w, r, &req) {
		return
	}
	flags, ok := inputFlagsOf(w, req.InputOverrides)
	if !ok {
		return
	}
	got, err := s.d.Exec.Resume(id, flags, req.FromStep)
	if err != nil {
		if executions.IsNotFound(err) {
			writeProblem(w, http.StatusNotFound, "execution not found or cannot be resumed: "+id, fault.UserRunNotFound)
			return
		}
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, Accepted{ExecutionID: got, Status: "accepted"})
}

// filter is the query of the history and list endpoints.
type filter struct {
	usecase.HistoryFilter
	since, until time.Time
}

// historyFilter reads workflow, status, since, until and limit, answering 400 for a bad one.
func historyFilter(w http.ResponseWriter, r *http.Request) (filter, bool) {
	q := r.URL.Query()
	var f filter
	f.Workflow = q.Get("workflow")
	if st := q.Get("status"); st != "" {
		// runrecord.Canonical: the reference's words (completed, failed, cancelled) and awf's
		// own (success, failure, error), one table for the CLI and the API.
		rs := runrecord.Canonical(st)
		if rs == "" {
			writeProblem(w, http.StatusBadRequest, "unknown status "+strconvQuote(st)+": use success, failure, error, interrupted, crashed or running (or completed, failed, cancelled)", "")
			return f, false
		}
		f.Status = rs
	}
	for name, t := range map[string]*time.Time{"since": &f.since, "until": &f.until} {
		if v := q.Get(name); v != "" {
			p, err := time.Parse(time.RFC3339, v)
			if err != nil {
				writeProblem(w, http.StatusBadRequest, name+" must be an RFC 3339 time such as 2026-05-17T20:39:00Z", "")
				return f, false
			}
			*t = p
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeProblem(w, http.StatusBadRequest, "limit must be a whole number ≥ 0", "")
			return f, false
		}
		f.Limit = n
	}
	return f, true
}

// runs lists the runs the filter keeps; since and until are applied here, so the limit counts
// after them.
func (s *Server) runs(f filter) ([]usecase.RunSummary, error) {
	limit := f.Limit
	hf := f.HistoryFilter
	if !f.since.IsZero() || !f.until.IsZero() {
		hf.Limit = 0
	}
	all, err := s.d.Runs.History(hf)
	if err != nil {
		return nil, err
	}
	var out []usecase.RunSummary
	for _, run := range all {
		if (!f.since.IsZero() && run.Started.Before(f.since)) || (!f.until.IsZero() && run.Started.After(f.until)) {
			continue
		}
		out = append(out, run)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	f, ok := historyFilter(w, r)
	if !ok {
		return
	}
	runs, err := s.runs(f)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := History{Entries: []HistoryEntry{}}
	for _, run := range runs {
		e := HistoryEntry{ID: run.ID, WorkflowName: run.Workflow, Status: historyStatus(run.Status), StartedAt: run.Started.UTC(),
			DurationMS: run.Duration.Milliseconds(), ToolCalls: run.ToolCalls}
		if run.Status != runrecord.Running {
			end := run.Started.Add(run.Duration).UTC()
			e.CompletedAt = &end
		}
		out.Entries = append(out.Entries, e)
	}
	writeJSON(w, http.StatusOK, out)
}

// historyStatus is the reference history's word for a status: success, failed, cancelled.
func historyStatus(st string) string {
	if st == runrecord.Succeeded {
		return "success"
	}
	return executions.APIStatus(st)
}

func (s *Server) historyStats(w http.ResponseWriter, r *http.Request) {
	f, ok := historyFilter(w, r)
	if !ok {
		return
	}
	f.Limit = 0
	runs, err := s.runs(f)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var st HistoryStats
	var total time.Duration
	for _, run := range runs {
		st.TotalExecutions++
		total += run.Duration
		switch historyStatus(run.Status) {
		case "success":
			st.SuccessCount++
		case "cancelled":
			st.CancelledCount++
		case "failed":
			st.FailedCount++
		}
	}
	if st.TotalExecutions > 0 {
		st.AvgDurationMs = (total / time.Duration(st.TotalExecutions)).Milliseconds()
	}
	writeJSON(w, http.StatusOK, st)
}
