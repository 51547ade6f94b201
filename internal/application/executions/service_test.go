package executions

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// store is an in-memory RunStore.
type store struct {
	mu   sync.Mutex
	recs map[string]runrecord.Record
}

func (s *store) Save(r runrecord.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[r.ID] = r
	return nil
}

func (s *store) Load(id string) (runrecord.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[id]
	if !ok {
		return r, fault.New(fault.UserRunNotFound, "no run %q", id)
	}
	return r, nil
}
func (s *store) List() ([]runrecord.Record, error) { return nil, nil }
func (s *store) ToolCalls(string) int              { return 0 }
func (s *store) Alive(pid int) bool                { return pid == 42 || pid == 7 }
func (s *store) Lock(string) (func(), error)       { return func() {}, nil }
func (s *store) ReadSource(string) ([]byte, error) { return nil, nil }
func (s *store) save(id, status string, pid int) {
	_ = s.Save(runrecord.Record{ID: id, Status: status, PID: pid})
}

// procs records the processes asked to stop.
type procs struct{ terminated []int }

func (p *procs) Alive(int) bool                      { return true }
func (p *procs) Terminate(pid int) error             { p.terminated = append(p.terminated, pid); return nil }
func (p *procs) Kill(int) error                      { return nil }
func (p *procs) WaitExit(context.Context, int) error { return nil }

// A started run answers with its id once its record exists and runs on until cancelled; a
// request refused before the run has an id is the launcher's error; cancel stops the server's
// own run through its context and another process's with SIGTERM, and leaves an ended run.
func TestStartCancel(t *testing.T) {
	st := &store{recs: map[string]runrecord.Record{}}
	pr := &procs{}
	ended := make(chan error, 1)
	svc := &Service{Runs: st, Processes: pr, Base: context.Background(), PID: 7,
		Launch: func(ctx context.Context, req Request, started func(string)) error {
			if req.Workflow == "bad" {
				return &Refused{Problems: []string{"input x is missing"}}
			}
			st.save("r1", runrecord.Running, 7)
			started("r1")
			<-ctx.Done()
			st.save("r1", runrecord.Interrupted, 7)
			ended <- ctx.Err()
			return ctx.Err()
		}}
	if _, err := svc.Start(Request{Workflow: "bad"}); err == nil || err.Error() != "input x is missing" {
		t.Fatalf("refused: %v", err)
	}
	id, err := svc.Start(Request{Workflow: "w"})
	if err != nil || id != "r1" {
		t.Fatalf("start: %q %v", id, err)
	}
	if _, err := svc.Resume("r1", nil, ""); err == nil {
		t.Error("a running run was resumed")
	}
	if err := svc.Cancel("r1"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not reach the run")
	}
	svc.Wait()
	if svc.Done("r1") != nil {
		t.Error("an ended run is still held")
	}
	if err := svc.Cancel("r1"); err != nil || len(pr.terminated) != 0 {
		t.Errorf("cancel of an ended run: %v, terminated %v", err, pr.terminated)
	}
	st.save("cli", runrecord.Running, 42)
	if err := svc.Cancel("cli"); err != nil || len(pr.terminated) != 1 || pr.terminated[0] != 42 {
		t.Errorf("cancel of another process's run: %v, terminated %v", err, pr.terminated)
	}
	if err := svc.Cancel("nope"); !IsNotFound(err) {
		t.Errorf("cancel of an unknown run: %v", err)
	}
}
