package run

import (
	"context"
	"sync"
	"sync/atomic"
)

// iterRun is how one iteration of a concurrent for_each ended: the scope it left (a Fork of the
// loop's), how it ended, and an error that stops the run. ran is false for an item never
// started.
type iterRun struct {
	after Scope
	res   iterationEnd
	err   error
	ran   bool
}

// concurrent runs the for_each's items side by side, at most n at once, starting them in
// order. Each iteration's body runs in a Fork of scope, so iterations never see each other's
// results; afterwards the loop's scope holds each iteration's, in item order (the last item's
// win, as when they run one after another). The events and records of each body step carry
// the iteration ("each[3]"), and a resumed run replays the iterations that had finished.
//
// When an iteration fails the loop or leaves it, or break_when holds after one, no further item
// starts; those running finish. The loop then ends as the first such iteration in item order
// says. Cancelling ctx (Ctrl+C, a timeout) stops every running iteration.
func (l *loopRun) concurrent(ctx context.Context, scope Scope, n int) (Outcome, error) {
	runs := make([]iterRun, len(l.items))
	var halt atomic.Bool
	slots := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i := range l.items {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil || halt.Load() {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			iter := scope.Fork().withLoop(l.st.Name, l.items[i], i, l.length)
			r := iterRun{ran: true}
			r.after, r.res, r.err = l.iteration(ctx, iter)
			if r.err == nil && r.res.exit == "" && r.res.failed == nil {
				stop, err := l.breaks(r.after)
				r.err = err
				if stop {
					halt.Store(true)
				}
			}
			if r.err != nil || r.res.exit != "" || r.res.failed != nil {
				halt.Store(true)
			}
			runs[i] = r
		}()
	}
	wg.Wait()
	return l.gather(ctx, scope, runs, halt.Load())
}

// gather folds the iterations' results into the loop's Outcome, in item order.
func (l *loopRun) gather(ctx context.Context, scope Scope, runs []iterRun, halted bool) (Outcome, error) {
	cur, n := scope, 0
	var first *iterRun
	for i := range runs {
		r := &runs[i]
		if !r.ran {
			continue
		}
		n++
		cur = cur.absorb(r.after)
		if first == nil && (r.err != nil || r.res.exit != "" || r.res.failed != nil) {
			first = r
		}
	}
	if err := ctx.Err(); err != nil {
		return Outcome{Status: StepFailure, Iterations: n, Scope: &cur}, err
	}
	if first != nil && first.err != nil {
		return Outcome{Status: StepFailure, Iterations: n, Scope: &cur}, first.err
	}
	if first != nil {
		return l.left(n, first.res, &cur), nil
	}
	return l.ended(n, l.cut && !halted, &cur), nil
}
