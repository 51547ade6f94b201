package plugins

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/pkg/plugin"
	"github.com/awf-dev/awf/proto/pluginv1"
)

// State is where a plugin is in its life, as `awf plugins list` shows it.
type State string

// States.
const (
	StateNotStarted State = "not started"
	StateRunning    State = "running"
	StateCrashed    State = "crashed"  // died; the next call starts it again (unless it crash-loops)
	StateFailed     State = "failed"   // the last start failed
	StateStopped    State = "stopped"  // the host was closed
	StateDisabled   State = "disabled" // declared with disabled: true
)

// Status describes one plugin.
type Status struct {
	Name  string
	State State
	// PID of the running process, 0 when none.
	PID int
	// Version and Description as the plugin reported them (Info), once started.
	Version, Description string
	// Operations the running plugin lists.
	Operations []ports.PluginOperation
	// Restarts counts starts after the first.
	Restarts int
	// Err is why the last start failed or the process died.
	Err error
}

// conn is one running plugin process and its gRPC client.
type conn struct {
	client *goplugin.Client
	rpc    *plugin.Client
	runner *procRunner
	info   *pluginv1.InfoResponse
	ops    []ports.PluginOperation
}

// exited reports whether the process has ended.
func (c *conn) exited() bool {
	select {
	case <-c.rpc.Done():
		return true
	default:
		return false
	}
}

// instance is the runtime side of one declared plugin: at most one process at a time.
type instance struct {
	h    *Host
	spec Spec
	log  *zap.Logger
	sem  chan struct{} // held while starting or stopping, so callers share one start

	mu       sync.Mutex
	cur      *conn
	state    State
	crashes  int // deaths and failed starts in a row, reset by a call that got an answer
	starts   int
	lastErr  error
	cleaning sync.WaitGroup // Kill of dead processes' clients, awaited by stop
}

func newInstance(h *Host, spec Spec) *instance {
	return &instance{
		h: h, spec: spec, state: StateNotStarted,
		log: h.opts.Logger.With(zap.String("plugin", spec.Name)),
		sem: make(chan struct{}, 1),
	}
}

// live returns the running connection, noticing a process that died while idle.
func (i *instance) live() *conn {
	i.mu.Lock()
	defer i.mu.Unlock()
	c := i.cur
	if c == nil {
		return nil
	}
	if c.exited() {
		i.crashedLocked(c, fmt.Errorf("plugin %q exited while idle%s", i.spec.Name, exitSuffix(c)))
		return nil
	}
	return c
}

// connect returns a running connection, starting the plugin when there is none.
func (i *instance) connect(ctx context.Context) (*conn, error) {
	if c := i.live(); c != nil {
		return c, nil
	}
	select {
	case i.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for plugin %q to start: %w", i.spec.Name, ctx.Err())
	case <-i.h.done:
		return nil, closedError(i.spec.Name)
	}
	defer func() { <-i.sem }()
	if c := i.live(); c != nil {
		return c, nil
	}
	if i.h.isClosed() {
		return nil, closedError(i.spec.Name)
	}
	i.mu.Lock()
	crashes, last := i.crashes, i.lastErr
	i.mu.Unlock()
	if crashes >= i.h.opts.MaxCrashes {
		return nil, crashLoopError(i.spec.Name, crashes, last)
	}
	c, err := i.start(ctx)
	i.mu.Lock()
	defer i.mu.Unlock()
	if err != nil {
		if errors.Is(err, errClosed) {
			return nil, closedError(i.spec.Name)
		}
		if ctx.Err() == nil {
			// A plugin that cannot start counts like one that dies: after MaxCrashes in a row,
			// calls fail at once instead of each waiting for another doomed start.
			i.crashes++
		}
		i.state, i.lastErr = StateFailed, err
		i.log.Error("plugin failed to start", zap.Error(err))
		return nil, err
	}
	i.cur, i.state, i.lastErr = c, StateRunning, nil
	i.starts++
	return c, nil
}

// crashedLocked records that c died; the caller holds mu. Only the first report of one process
// counts, however many calls were in flight. The dead client is cleaned up in the background
// (socket, goroutines) and awaited by stop.
func (i *instance) crashedLocked(c *conn, err error) bool {
	if i.cur != c {
		return false
	}
	i.cur = nil
	i.crashes++
	i.state, i.lastErr = StateCrashed, err
	i.log.Error("plugin process died", zap.Error(err), zap.Int("crashes_in_a_row", i.crashes))
	i.cleaning.Add(1)
	go func() {
		defer i.cleaning.Done()
		c.client.Kill()
	}()
	return true
}

// broken stops a connection that stopped answering although its process may still run, so the
// next call starts a fresh one.
func (i *instance) broken(c *conn, err error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.crashedLocked(c, err) && c.runner != nil {
		_ = c.runner.Kill(context.Background())
	}
}

// answered resets the crash count: the plugin works.
func (i *instance) answered() {
	i.mu.Lock()
	i.crashes = 0
	i.mu.Unlock()
}

func (i *instance) status() Status {
	i.live() // notice a process that died while idle
	i.mu.Lock()
	defer i.mu.Unlock()
	s := Status{Name: i.spec.Name, State: i.state, Restarts: max(i.starts-1, 0), Err: i.lastErr}
	if c := i.cur; c != nil {
		s.PID = c.runner.PID()
		s.Version, s.Description = c.info.GetVersion(), c.info.GetDescription()
		s.Operations = append([]ports.PluginOperation(nil), c.ops...)
	}
	return s
}

// stop shuts the plugin down for Close: a Shutdown call so it can flush, then go-plugin's Kill
// (graceful, then forced), and, should even that hang (a frozen process), SIGKILL of its group.
func (i *instance) stop() {
	i.sem <- struct{}{} // a start in flight aborts promptly: h.done is closed
	defer func() { <-i.sem }()
	i.mu.Lock()
	c := i.cur
	i.cur = nil
	i.state = StateStopped
	i.mu.Unlock()
	if c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), i.h.opts.ShutdownTimeout)
		if _, err := c.rpc.Shutdown(ctx, &pluginv1.ShutdownRequest{}); err != nil && !c.exited() {
			i.log.Warn("plugin did not shut down cleanly", zap.Error(err))
		}
		cancel()
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			c.client.Kill()
		}()
		select {
		case <-killed:
		case <-time.After(i.h.opts.ShutdownTimeout + 3*time.Second):
			i.log.Warn("plugin did not exit; killing its process group")
			if c.runner != nil {
				_ = c.runner.Kill(context.Background())
			}
			<-killed
		}
		i.log.Debug("plugin stopped")
	}
	i.cleaning.Wait()
}

// exitSuffix describes how c's process ended, " (signal: killed)", or "" if unknown.
func exitSuffix(c *conn) string {
	if c.runner == nil {
		return ""
	}
	err, done := c.runner.ExitError()
	switch {
	case !done:
		return ""
	case err == nil:
		return " (exit status 0)"
	default:
		return " (" + err.Error() + ")"
	}
}
