package routing

import (
	"context"
	"sync"
	"time"
)

// recordContext is the context an activity record is written under:
// context.WithTimeout(context.WithoutCancel(ctx), activityTimeout), made lazily. It has the
// call's values but not its cancellation (a cancelled call is still recorded) and a deadline;
// its timer starts only when a sink waits on Done (a lock held by another writer), so an
// uncontended write, nearly every one, costs one allocation instead of a timer and four.
type recordContext struct {
	parent   context.Context
	deadline time.Time

	once  sync.Once
	done  chan struct{}
	timer *time.Timer
}

func newRecordContext(parent context.Context, deadline time.Time) *recordContext {
	return &recordContext{parent: parent, deadline: deadline}
}

// Deadline implements context.Context.
func (c *recordContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Done implements context.Context: closed once the deadline passes.
func (c *recordContext) Done() <-chan struct{} {
	c.once.Do(func() {
		c.done = make(chan struct{})
		d := time.Until(c.deadline)
		if d <= 0 {
			close(c.done)
			return
		}
		done := c.done
		c.timer = time.AfterFunc(d, func() { close(done) })
	})
	return c.done
}

// Err implements context.Context.
func (c *recordContext) Err() error {
	if time.Now().Before(c.deadline) {
		return nil
	}
	return context.DeadlineExceeded
}

// Value implements context.Context with the call's values.
func (c *recordContext) Value(key any) any { return c.parent.Value(key) }

// release stops the timer, if Done started one. The context must not be waited on afterwards.
func (c *recordContext) release() {
	c.once.Do(func() { c.done = closedDone })
	if c.timer != nil {
		c.timer.Stop()
	}
}

// closedDone is Done's channel for a released context.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
