package httpapi

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
)

// The API lists a run's held call and takes one decision on it: the holder gets it with
// by=api (or page when the page says so), a second decision is 409, hostile or unknown ids 404,
// a bad body 400.
func TestApprovalsAPI(t *testing.T) {
	dir := approvals.Dir{Path: t.TempDir(), Timeout: time.Minute, Poll: 5 * time.Millisecond}
	s := New(Deps{Approvals: func(id string) approvals.Dir {
		if id != "run-1" {
			return approvals.Dir{Path: "/nonexistent"}
		}
		return dir
	}})
	do := func(method, path, body string) (int, string) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
		return w.Code, w.Body.String()
	}
	out := make(chan activity.Approval, 1)
	go func() {
		a, _ := dir.Await(context.Background(), routing.ApprovalRequest{Tool: "Bash", Variant: "destructive", Args: map[string]any{"command": "touch m"}})
		out <- a
	}()
	var list Envelope[ApprovalList]
	for range 200 {
		code, body := do("GET", "/api/executions/run-1/approvals", "")
		if code != 200 {
			t.Fatalf("list: %d %s", code, body)
		}
		list = Envelope[ApprovalList]{}
		_ = json.Unmarshal([]byte(body), &list)
		if len(list.Body.Approvals) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(list.Body.Approvals) != 1 || list.Body.Approvals[0].Summary != "touch m" {
		t.Fatalf("list = %+v", list)
	}
	id := list.Body.Approvals[0].ID
	if code, body := do("GET", "/api/executions/other/approvals", ""); code != 200 || !strings.Contains(body, `"approvals":[]`) {
		t.Errorf("another run: %d %s", code, body)
	}
	for _, tc := range []struct {
		path, body string
		want       int
	}{
		{"/api/executions/run-1/approvals/" + id, `{"decision":"maybe"}`, 400},
		{"/api/executions/run-1/approvals/" + id, `{"decision":"approve","by":"timeout"}`, 400},
		{"/api/executions/run-1/approvals/" + id, `not json`, 400},
		{"/api/executions/run-1/approvals/..%2f..%2fetc", `{"decision":"approve"}`, 404},
		{"/api/executions/run-1/approvals/0123456789abcdef0123456789abcdef", `{"decision":"approve"}`, 404},
		{"/api/executions/run-1/approvals/" + id, `{"decision":"approve","by":"page"}`, 200},
		{"/api/executions/run-1/approvals/" + id, `{"decision":"deny"}`, 409},
	} {
		if code, body := do("POST", tc.path, tc.body); code != tc.want {
			t.Errorf("POST %s %s = %d %s, want %d", tc.path, tc.body, code, body, tc.want)
		}
	}
	if a := <-out; a.Decision != activity.ApprovalApprove || a.By != activity.ApprovedByPage {
		t.Errorf("holder got %+v", a)
	}
}
