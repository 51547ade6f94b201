package executions

import (
	"github.com/awf-dev/awf/internal/application/run"
)

// Lines are the output lines of the runs this server runs, passed to the event streams that
// follow them as they come: a command's output can be watched line by line, which the run's
// files, written when the step ends, cannot give. A run of another process streams its output
// when each step ends.
type lines struct {
	subs map[string]map[chan Event]bool
}

// Subscribe returns the output events of run id from now on, and the function that stops
// them. The channel is buffered; a subscriber too slow to keep up misses lines, never blocks
// the run (the step's whole output still comes when it ends).
func (s *Service) Subscribe(id string) (<-chan Event, func()) {
	ch := make(chan Event, 256)
	s.mu.Lock()
	if s.lines.subs == nil {
		s.lines.subs = map[string]map[chan Event]bool{}
	}
	if s.lines.subs[id] == nil {
		s.lines.subs[id] = map[chan Event]bool{}
	}
	s.lines.subs[id][ch] = true
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.lines.subs[id], ch)
		if len(s.lines.subs[id]) == 0 {
			delete(s.lines.subs, id)
		}
	}
}

// Observer is the run observer a launcher adds to run id: it passes the run's output lines on
// to the subscribers.
func (s *Service) Observer(id string) run.Observer { return lineObserver{s: s, id: id} }

type lineObserver struct {
	s  *Service
	id string
}

// Observe implements run.Observer.
func (o lineObserver) Observe(e run.Event) {
	out, ok := e.(run.StepOutput)
	if !ok {
		return
	}
	ev := Event{Type: Output, ExecutionID: o.id, StepName: out.Name, Within: out.Within, Output: out.Line, Partial: true}
	if out.Stderr {
		ev.Stream = "stderr"
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	for ch := range o.s.lines.subs[o.id] {
		select {
		case ch <- ev:
		default:
		}
	}
}
