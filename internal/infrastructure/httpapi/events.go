package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/awf-dev/awf/internal/application/executions"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// events streams a run's events as server-sent events (event: <type>, data: <JSON>) until the
// run ends or the client goes; a run that does not exist is a 404 before the stream opens.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return
	}
	if _, err := s.d.Runs.Store.Load(id); err != nil {
		writeProblem(w, http.StatusNotFound, "execution not found: "+id, fault.UserRunNotFound)
		return
	}
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if fl != nil {
		fl.Flush()
	}
	// A reconnecting EventSource sends the id of the last event it got: the stream replays from
	// the start and skips what the client already has.
	seen, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	// Output lines as they come are not numbered: a replay cannot give them again (the step's
	// whole output comes when it ends), so they must not shift the numbers of the others.
	var mu sync.Mutex
	n, done := 0, false
	send := func(e executions.Event, numbered bool) {
		data, err := json.Marshal(e)
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if done {
			return
		}
		if numbered {
			if n++; n <= seen {
				return
			}
			fmt.Fprintf(w, "id: %d\n", n)
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, data)
		if fl != nil {
			fl.Flush()
		}
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if s.d.Exec != nil {
		lines, stop := s.d.Exec.Subscribe(id)
		defer stop()
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case e := <-lines:
					e.Output = s.mask(e.Output)
					send(e, false)
				}
			}
		}()
	}
	_ = s.d.Events.Follow(ctx, id, func(e executions.Event) { send(e, true) })
	mu.Lock() // the line goroutine writes nothing once the handler returns
	done = true
	mu.Unlock()
}

// reportCSP is the report's own policy: inline styles and script of the page only, nothing
// fetched.
const reportCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	id, ok := pathValue(w, r, "id", "execution")
	if !ok {
		return
	}
	page, err := s.d.Report(r.Context(), id)
	if err != nil {
		s.writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", reportCSP)
	_, _ = w.Write(page)
}
