// Package httpapi is `awf serve`'s HTTP side: the reference awf's API (its paths, bodies,
// {"body": …} envelopes and RFC 9457 problems), server-sent events of a run, the OpenAPI
// document generated from the route table, the live pages, and the bearer token. What it does
// with runs is the executions use case's (internal/application/executions); this package only
// speaks HTTP (docs/decisions/0032-serve-and-live-pages.md).
package httpapi

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/awf-dev/awf/internal/application/executions"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
)

// Deps are what the server serves from; cmd/awf wires them.
type Deps struct {
	Exec      *executions.Service
	Events    executions.Sources
	Runs      usecase.Runs
	Workflows usecase.WorkflowCatalog
	Validator usecase.Validator
	// Report draws run id's HTML report (awf report's page).
	Report func(ctx context.Context, id string) ([]byte, error)
	// Redactor masks what the answers quote of runs (errors, outputs).
	Redactor *redact.Redactor
	// Approvals is run id's approvals directory (mcp_proxy.intent.ask); nil serves none.
	Approvals func(id string) approvals.Dir
	// Token, when set, is required as `Authorization: Bearer <token>` on every request.
	Token string
}

// Server is the API's handler.
type Server struct {
	d   Deps
	mux *http.ServeMux
}

// New builds the server with every route of the table registered.
func New(d Deps) *Server {
	s := &Server{d: d, mux: http.NewServeMux()}
	for _, rt := range routes() {
		h := rt.handle
		s.mux.HandleFunc(rt.method+" "+rt.path, func(w http.ResponseWriter, r *http.Request) { h(s, w, r) })
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path+" (GET /openapi.json lists them)", "")
	})
	return s
}

// ServeHTTP checks the token, then routes. Without the token the answer is a bare 401: no
// route, no body beyond the problem, nothing about runs.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	if s.d.Token != "" && !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="awf"`)
		writeProblem(w, http.StatusUnauthorized, "this server needs its token: send Authorization: Bearer <token>", "")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// authorized compares the request's bearer token with the server's in constant time. The live
// page's EventSource cannot set a header, so it may carry the token as ?token= instead.
func (s *Server) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		got = r.URL.Query().Get("token")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.d.Token)) == 1
}

// writeJSON writes v in the {"body": …} envelope.
func writeJSON[T any](w http.ResponseWriter, status int, v T) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(Envelope[T]{Body: v})
}

// writeProblem writes an RFC 9457 problem.
func writeProblem(w http.ResponseWriter, status int, detail, code string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(Problem{Title: http.StatusText(status), Status: status, Detail: detail, Code: code})
}

// writeError maps an error to its problem: a missing run or workflow 404, a user's mistake 422,
// anything else 500. The detail is masked.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var refused *executions.Refused
	switch {
	case executions.IsNotFound(err):
		status = http.StatusNotFound
	case errors.As(err, &refused):
		status = http.StatusUnprocessableEntity
	case fault.ExitCode(err) == fault.ExitUser:
		status = http.StatusUnprocessableEntity
	}
	writeProblem(w, status, s.mask(err.Error()), fault.CodeOf(err)) // the error says its hint
}

func (s *Server) mask(text string) string {
	if s.d.Redactor == nil {
		return text
	}
	return s.d.Redactor.String(text)
}

// maxBody bounds a request body: inputs are small.
const maxBody = 1 << 20

// readBody decodes a JSON request body into v; an empty body is the zero request.
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeProblem(w, http.StatusBadRequest, "cannot read the request body: "+err.Error(), "")
		return false
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return true
	}
	if err := json.Unmarshal(data, v); err != nil {
		writeProblem(w, http.StatusBadRequest, "the request body is not the JSON this endpoint takes: "+err.Error()+" (GET /openapi.json has its schema)", "")
		return false
	}
	return true
}

// idPattern is what a run id or workflow name in a path may be: no separators, no leading dot,
// so no path value can name a file outside its directory.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

// pathValue returns the path segment name, or answers 404 when it cannot be an id.
func pathValue(w http.ResponseWriter, r *http.Request, name, what string) (string, bool) {
	v := r.PathValue(name)
	if !idPattern.MatchString(v) {
		writeProblem(w, http.StatusNotFound, what+" not found: "+strconvQuote(v), "")
		return "", false
	}
	return v, true
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
