package stepproxy

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

type provider struct{ defs []tool.Definition }

func (p provider) ListTools(context.Context) ([]tool.Definition, error) { return p.defs, nil }
func (p provider) CallTool(_ context.Context, name string, _ json.RawMessage) (tool.Result, error) {
	return tool.Text("called " + name), nil
}
func (provider) Close() error { return nil }

type source []activity.Record

func (s source) List(_ context.Context, f activity.Filter) ([]activity.Record, error) {
	var out []activity.Record
	for _, r := range s {
		if f.Match(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

type failingSource struct{}

func (failingSource) List(context.Context, activity.Filter) ([]activity.Record, error) {
	return nil, errors.New("unreadable")
}

// files is an in-memory ports.PrivateFiles: dirs made and removed, and a failure to inject.
type files struct {
	mu      sync.Mutex
	made    []string
	parents []string
	removed []string
	written map[string][]byte
	failDir error
}

func (f *files) MakeDir(parent, prefix string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failDir != nil {
		return "", f.failDir
	}
	dir := parent + "/" + prefix + "123"
	f.made = append(f.made, dir)
	f.parents = append(f.parents, parent)
	return dir, nil
}

func (f *files) WriteFile(path string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.written == nil {
		f.written = map[string][]byte{}
	}
	f.written[path] = data
	return nil
}

func (f *files) RemoveAll(path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, path)
	return nil
}

// live reports the dirs made and not removed.
func (f *files) live() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, d := range f.made {
		gone := false
		for _, r := range f.removed {
			gone = gone || strings.HasPrefix(d, r)
		}
		if !gone {
			out = append(out, d)
		}
	}
	return out
}

// handoff is an in-memory ports.ToolsetHandoff.
type handoff struct {
	specs    map[string]toolset.Spec
	ready    map[string]toolset.Ready
	failSpec error
}

func (h *handoff) WriteSpec(path string, spec toolset.Spec) error {
	if h.failSpec != nil {
		return h.failSpec
	}
	if h.specs == nil {
		h.specs = map[string]toolset.Spec{}
	}
	h.specs[path] = spec
	return nil
}

func (h *handoff) ReadReady(_ context.Context, path string) (toolset.Ready, error) {
	r, ok := h.ready[path]
	if !ok {
		return r, errors.New("no ready record")
	}
	return r, nil
}

// procs is a process table with one process that exits when told to (or never, for SIGTERM).
type procs struct {
	mu         sync.Mutex
	alive      map[int]bool
	ignoreTerm bool
	calls      []string
	waits      []time.Duration
}

func (p *procs) Alive(pid int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.alive[pid]
}

func (p *procs) Terminate(pid int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, "term")
	if !p.ignoreTerm {
		p.alive[pid] = false
	}
	return nil
}

func (p *procs) Kill(pid int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, "kill")
	p.alive[pid] = false
	return nil
}

func (p *procs) WaitExit(ctx context.Context, pid int) error {
	dl, ok := ctx.Deadline()
	p.mu.Lock()
	if ok {
		p.waits = append(p.waits, time.Until(dl))
	} else {
		p.waits = append(p.waits, noDeadline)
	}
	alive := p.alive[pid]
	p.mu.Unlock()
	if !alive {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

// noDeadline marks a wait without a deadline; any real remaining time is larger.
const noDeadline = -time.Hour

// env is a fixed ports.Environment.
type env []string

func (e env) Environ() []string { return e }
