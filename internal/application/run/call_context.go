package run

import (
	"context"
	"path/filepath"

	"go.uber.org/zap"
)

// frame is what a running walk tells the states it executes: the scheduler walking (with the
// run's observer), its logger, and the chain of workflows calling one another down to it, so a
// call_workflow state can run a sub-workflow as nested steps and refuse a cycle or a chain too
// deep. The root walk has a chain of one.
type frame struct {
	sched *scheduler
	log   *zap.Logger
	// chain names the workflows from the root down; files are their files, cleaned.
	chain []string
	files []string
}

type frameKey struct{}

// withFrame returns ctx carrying f for the states of the walk it starts.
func withFrame(ctx context.Context, f frame) context.Context {
	return context.WithValue(ctx, frameKey{}, f)
}

// frameOf returns the frame of the walk ctx belongs to.
func frameOf(ctx context.Context) (frame, bool) {
	f, ok := ctx.Value(frameKey{}).(frame)
	return f, ok
}

// rootFrame is the frame of a run's root walk.
func rootFrame(s *scheduler, log *zap.Logger, name, file string) frame {
	return frame{sched: s, log: log, chain: []string{name}, files: []string{cleanFile(file)}}
}

func cleanFile(f string) string {
	if f == "" {
		return ""
	}
	return filepath.Clean(f)
}
