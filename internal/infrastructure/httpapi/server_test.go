package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// Every route of the table is in the OpenAPI document, with its method, and the document
// survives a JSON round trip.
func TestOpenAPIHasEveryRoute(t *testing.T) {
	data, err := json.Marshal(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI    string                    `json:"openapi"`
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	for _, rt := range routes() {
		if doc.Paths[specPath(rt.path)][strings.ToLower(rt.method)] == nil {
			t.Errorf("%s %s is not in the document", rt.method, rt.path)
		}
	}
	for _, name := range []string{"Execution", "Accepted", "RunRequest", "ResumeRequest", "Problem", "History"} {
		if doc.Components.Schemas[name] == nil {
			t.Errorf("schema %s missing", name)
		}
	}
	for _, ref := range strings.Split(string(data), `"$ref":"#/components/schemas/`)[1:] {
		name := ref[:strings.IndexByte(ref, '"')]
		if doc.Components.Schemas[name] == nil {
			t.Errorf("dangling $ref %s", name)
		}
	}
}

// With a token set, every request without it (or with another) is a bare 401 problem, and
// the token is also taken from ?token= for the live page's EventSource.
func TestToken401(t *testing.T) {
	s := New(Deps{Token: "0123456789abcdef"})
	for _, tc := range []struct {
		header, query string
		want          int
	}{
		{"", "", 401},
		{"Bearer nope", "", 401},
		{"Basic 0123456789abcdef", "", 401},
		{"Bearer 0123456789abcdef", "", 404},
		{"", "?token=0123456789abcdef", 404},
	} {
		req := httptest.NewRequest("GET", "/nowhere"+tc.query, nil)
		if tc.header != "" {
			req.Header.Set("Authorization", tc.header)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%q %q: %d, want %d", tc.header, tc.query, rec.Code, tc.want)
		}
		if tc.want == 401 && (rec.Header().Get("Content-Type") != "application/problem+json" || !strings.Contains(rec.Body.String(), `"status":401`)) {
			t.Errorf("401 body %q", rec.Body.String())
		}
	}
}

func TestInputFlags(t *testing.T) {
	got := inputFlags(map[string]any{"b": 2.5, "a": "x=y", "c": []any{"1", 2.0}, "d": true, "e": nil})
	want := []string{"a=x=y", "b=2.5", "c=1", "c=2", "d=true", "e="}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Path values that could name a file elsewhere are not ids.
func TestIDPattern(t *testing.T) {
	for s, ok := range map[string]bool{"20261128-163354-924ff1": true, "flow": true, "a.b_c-d": true,
		"..": false, ".hidden": false, "a/b": false, "": false, "a b": false, `a\b`: false} {
		if idPattern.MatchString(s) != ok {
			t.Errorf("%q: %v", s, !ok)
		}
	}
}

func TestProblemShape(t *testing.T) {
	rec := httptest.NewRecorder()
	writeProblem(rec, http.StatusNotFound, "execution not found: x", "USER.RUN.NOT_FOUND")
	var p Problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != 404 || p.Title != "Not Found" || p.Detail == "" {
		t.Errorf("%v %+v", err, p)
	}
}

// An input name holding "=" would move part of itself into the value: refused before anything
// runs.
func TestInputNameWithEquals(t *testing.T) {
	for _, body := range []string{`{"inputs":{"who=x":"y"}}`, `{"inputs":{"":"y"}}`} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/", strings.NewReader(body))
		var rr RunRequest
		if !readBody(rec, req, &rr) {
			t.Fatalf("%s: not read", body)
		}
		if _, ok := inputFlagsOf(rec, rr.Inputs); ok || rec.Code != 400 {
			t.Errorf("%s: accepted (%d)", body, rec.Code)
		}
	}
}

// TestHistoryFilterTakesEveryStatusWord: the API's status filter reads the same words as
// `awf history --status`, awf's own (failure, error) as well as the reference's (failed,
// cancelled), and refuses a word neither has.
func TestHistoryFilterTakesEveryStatusWord(t *testing.T) {
	for word, want := range map[string]string{"success": "success", "completed": "success", "failure": "failure",
		"failed": "failure", "error": "error", "cancelled": "interrupted", "crashed": "crashed", "running": "running"} {
		rec := httptest.NewRecorder()
		f, ok := historyFilter(rec, httptest.NewRequest("GET", "/api/history?status="+word, nil))
		if !ok || f.Status != want {
			t.Errorf("status=%s: ok %v, filter %q, want %q (%s)", word, ok, f.Status, want, rec.Body.String())
		}
	}
	rec := httptest.NewRecorder()
	if _, ok := historyFilter(rec, httptest.NewRequest("GET", "/api/history?status=bogus", nil)); ok || rec.Code != 400 {
		t.Errorf("status=bogus accepted: %d", rec.Code)
	}
}
