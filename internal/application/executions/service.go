// Package executions is what `awf serve` does with runs, apart from HTTP: start a workflow or
// resume a run through the same run use case `awf run` uses, list and show runs (those of the
// CLI included, read from their records), cancel them, and follow one as a stream of events
// derived from its record and its activity file (docs/decisions/0032-serve-and-live-pages.md).
package executions

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// Request is one run or resume asked for through the API.
type Request struct {
	// Workflow is the workflow's name (a new run); ResumeID the run to continue (a resume).
	Workflow string
	ResumeID string
	// Inputs are name=value, as `awf run --input` takes them; for a resume, the inputs to
	// override. From is the state a resume continues at ("" where the run stopped).
	Inputs []string
	From   string
}

// Launcher runs one request through the run use case, blocking until the run ends. It calls
// started with the run's id as soon as the run has one (the view's Started); a request refused
// before that (unknown workflow, invalid inputs) returns its error without calling it.
type Launcher func(ctx context.Context, req Request, started func(runID string)) error

// Refused is a request the run use case turned down before the run started, with the
// problems its view was shown, so an API can answer 422 with them instead of 202.
type Refused struct {
	Problems []string
}

// Error joins the problems.
func (e *Refused) Error() string {
	if len(e.Problems) == 0 {
		return "the run was refused"
	}
	msg := e.Problems[0]
	for _, p := range e.Problems[1:] {
		msg += "; " + p
	}
	return msg
}

// Service keeps the runs this process started (to cancel them) and reads every run of the
// project from the run store.
type Service struct {
	Runs      ports.RunStore
	Processes ports.Processes
	Launch    Launcher
	// Base is the context runs are started in: cancelling it cancels every run of the server.
	Base context.Context
	// PID is this process's id: a record holding it is a run of this server.
	PID int

	mu    sync.Mutex
	live  map[string]*liveRun
	lines lines
	wg    sync.WaitGroup
}

type liveRun struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Start runs req in the background and returns the run's id once it has one, or the error
// that stopped it before.
func (s *Service) Start(req Request) (string, error) {
	return s.start(req, func(runrecord.Record) bool { return true })
}

// start is Start answering once ready holds for the run's record.
func (s *Service) start(req Request, ready func(runrecord.Record) bool) (string, error) {
	ctx, cancel := context.WithCancel(s.Base)
	ids := make(chan string, 1)
	ended := make(chan error, 1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		var id string
		err := s.Launch(ctx, req, func(runID string) {
			id = runID
			s.register(runID, cancel)
			ids <- runID
		})
		cancel()
		if id != "" {
			s.unregister(id)
		}
		ended <- err
	}()
	select {
	case id := <-ids:
		s.awaitRecord(id, ended, ready)
		return id, nil
	case err := <-ended:
		if err == nil {
			err = &Refused{}
		}
		return "", err
	}
}

// awaitRecord waits until run id's record is on disk and ready says it is the run just
// started (the run saves it on its first event, just after it got its id), so a client asking
// for the run right after the answer finds it, and a resumed run not as it was before. It gives
// up when the run ends first or after recordWait.
func (s *Service) awaitRecord(id string, ended chan error, ready func(runrecord.Record) bool) {
	deadline := time.Now().Add(recordWait)
	for time.Now().Before(deadline) {
		if rec, err := s.Runs.Load(id); err == nil && ready(rec) {
			return
		}
		select {
		case err := <-ended:
			ended <- err // put back for nobody: the channel has room for one
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// recordWait bounds awaitRecord.
const recordWait = 5 * time.Second

// Resume continues run id (see usecase.Run.Resume) in the background, in the same id.
func (s *Service) Resume(id string, overrides []string, from string) (string, error) {
	prev, err := s.Runs.Load(id)
	if err != nil {
		return "", err
	}
	if done := s.Done(id); done != nil && prev.Status != runrecord.Running {
		// Cancelled and recorded as ended, still closing its log and traces: wait for it.
		select {
		case <-done:
		case <-time.After(recordWait):
		}
	}
	if s.isLive(id) {
		return "", fault.New(fault.UserRunNotResumable, "run %s is running: there is nothing to resume", id).
			WithHint("cancel it first (DELETE /api/executions/%s), or wait for it to end", id)
	}
	return s.start(Request{ResumeID: id, Inputs: overrides, From: from}, func(rec runrecord.Record) bool { return rec.Resumed > prev.Resumed })
}

// Cancel stops run id: a run of this server through its context, a run of another awf process
// with SIGTERM (it ends as interrupted, as after Ctrl+C). A run that already ended is left as
// it is; an unknown id is USER.RUN.NOT_FOUND.
func (s *Service) Cancel(id string) error {
	s.mu.Lock()
	lr := s.live[id]
	s.mu.Unlock()
	if lr != nil {
		lr.cancel()
		return nil
	}
	rec, err := s.Runs.Load(id)
	if err != nil {
		return err
	}
	if rec.Effective(s.Runs.Alive) != runrecord.Running || rec.PID == s.PID {
		return nil
	}
	return s.Processes.Terminate(rec.PID)
}

// Wait blocks until every run this service started has ended (for a server shutting down and
// for tests).
func (s *Service) Wait() { s.wg.Wait() }

// Done returns a channel closed when run id, started by this service, ends; nil for a run it
// does not hold.
func (s *Service) Done(id string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lr := s.live[id]; lr != nil {
		return lr.done
	}
	return nil
}

func (s *Service) register(id string, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live == nil {
		s.live = map[string]*liveRun{}
	}
	s.live[id] = &liveRun{cancel: cancel, done: make(chan struct{})}
}

func (s *Service) unregister(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lr := s.live[id]; lr != nil {
		close(lr.done)
		delete(s.live, id)
	}
}

func (s *Service) isLive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[id] != nil
}

// IsNotFound says whether err is a missing run or workflow, which an API answers with 404.
func IsNotFound(err error) bool {
	var fe *fault.Error
	if !errors.As(err, &fe) {
		return false
	}
	return fe.Code == fault.UserRunNotFound || fe.Code == fault.UserWorkflowNotFound
}
