package httpapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// The live pages load their script and style from the server itself, so the policy allows no
// inline code at all and nothing from anywhere else.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

//go:embed assets/live.js assets/live.css
var assets embed.FS

var pages = template.Must(template.New("pages").Parse(pageTemplates))

// runsView is the runs list page's data.
type runsView struct {
	Token            string
	Workflow, Status string
	Statuses         []string
	Runs             []Execution
	Problem          string
}

func (s *Server) runsPage(w http.ResponseWriter, r *http.Request) {
	v := runsView{Token: s.pageToken(r), Workflow: r.URL.Query().Get("workflow"), Status: r.URL.Query().Get("status"),
		Statuses: []string{"running", "completed", "failed", "cancelled"}}
	f, ok := pageFilter(r)
	if !ok {
		v.Problem = "unknown status filter: choose one of the list"
	}
	runs, err := s.runs(f)
	if err != nil {
		v.Problem = s.mask(err.Error())
	}
	s.addMasks(runs...)
	for _, run := range runs {
		v.Runs = append(v.Runs, s.execution(run))
	}
	render(w, "runs", v)
}

// pageFilter is the runs page's query as a filter; an unknown status keeps every run.
func pageFilter(r *http.Request) (filter, bool) {
	f := filter{}
	f.Workflow = r.URL.Query().Get("workflow")
	f.Limit = 500
	if st := r.URL.Query().Get("status"); st != "" {
		rs := runrecord.Canonical(st)
		if rs == "" {
			return f, false
		}
		f.Status = rs
	}
	return f, true
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "run")
	if !ok {
		return
	}
	run, err := s.d.Runs.Status(id)
	if err != nil {
		writeProblem(w, http.StatusNotFound, "run not found: "+id+" (the runs are listed at /)", fault.UserRunNotFound)
		return
	}
	s.addMasks(run)
	render(w, "run", map[string]any{"Token": s.pageToken(r), "Run": s.execution(run)})
}

// pageToken is the token the page passes on to its script, stylesheet and event stream (an
// EventSource cannot send a header); "" when the server has none.
func (s *Server) pageToken(r *http.Request) string {
	if s.d.Token == "" {
		return ""
	}
	return s.d.Token // the request was authorized: the client holds it already
}

func render(w http.ResponseWriter, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		writeProblem(w, http.StatusInternalServerError, "cannot draw the page: "+err.Error(), "")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", pageCSP)
	w.Header().Set("Referrer-Policy", "no-referrer")
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	data, err := assets.ReadFile("assets/" + name)
	if err != nil || strings.Contains(name, "/") {
		writeProblem(w, http.StatusNotFound, "no such asset", "")
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	_, _ = w.Write(data)
}

func writeRaw(w http.ResponseWriter, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

const pageTemplates = `
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="/assets/live.css{{if .Token}}?token={{.Token}}{{end}}">{{end}}

{{define "runs"}}{{template "head" .}}<title>awf runs</title></head><body>
<header><h1>awf runs</h1></header>
<form method="get" action="/" class="filters">
{{if .Token}}<input type="hidden" name="token" value="{{.Token}}">{{end}}
<label>workflow <input name="workflow" value="{{.Workflow}}"></label>
<label>status <select name="status"><option value="">any</option>{{range .Statuses}}<option{{if eq . $.Status}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<button type="submit">filter</button></form>
{{if .Problem}}<p class="problem">{{.Problem}}</p>{{end}}
<table id="runs"><thead><tr><th>run</th><th>workflow</th><th>status</th><th>current step</th><th>started</th><th>tool calls</th></tr></thead><tbody>
{{range .Runs}}<tr class="st-{{.Status}}"><td><a href="/runs/{{.ExecutionID}}{{if $.Token}}?token={{$.Token}}{{end}}">{{.ExecutionID}}</a></td><td>{{.WorkflowName}}</td><td>{{.Status}}</td><td>{{.CurrentStep}}</td><td>{{.StartedAt.Format "2006-01-02 15:04:05Z"}}</td><td>{{.ToolCalls}}</td></tr>
{{else}}<tr><td colspan="6">No runs.</td></tr>{{end}}
</tbody></table></body></html>{{end}}

{{define "run"}}{{template "head" .}}<title>awf run {{.Run.ExecutionID}}</title></head><body>
<header><p><a href="/{{if .Token}}?token={{.Token}}{{end}}">runs</a></p>
<h1>{{.Run.WorkflowName}} <small>{{.Run.ExecutionID}}</small></h1>
<p>status <strong id="status" class="st-{{.Run.Status}}">{{.Run.Status}}</strong> ·
<a href="/api/executions/{{.Run.ExecutionID}}/report{{if .Token}}?token={{.Token}}{{end}}">report</a></p></header>
<div id="live" data-run="{{.Run.ExecutionID}}" data-token="{{.Token}}">
<h2>Waiting for approval</h2><ul id="approvals" aria-live="polite"></ul>
<h2>Timeline</h2><div id="timeline" aria-label="tool calls in order"></div>
<h2>Steps</h2><ol id="steps"></ol>
<h2>Tool calls</h2>
<table id="calls"><thead><tr><th>time</th><th>step</th><th>tool</th><th>variant</th><th>decision</th><th>outcome</th><th>ms</th><th>error</th></tr></thead><tbody id="calls-body"></tbody></table>
</div>
<noscript><p>The live view needs JavaScript; the <a href="/api/executions/{{.Run.ExecutionID}}/report">report</a> does not.</p></noscript>
<script src="/assets/live.js{{if .Token}}?token={{.Token}}{{end}}"></script>
</body></html>{{end}}
`
