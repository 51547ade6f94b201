package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// startOrResume picks how `awf run` starts: runWorkflow, or with --resume-if-interrupted
// runOrResume.
func startOrResume(resume bool) func(context.Context, *globalFlags, usecase.RunRequest, *runView) error {
	if resume {
		return runOrResume
	}
	return runWorkflow
}

// runOrResume is runWorkflow for `awf run --resume-if-interrupted`: an interrupted or crashed
// run of the same workflow and inputs is resumed instead of a new one started.
func runOrResume(ctx context.Context, g *globalFlags, req usecase.RunRequest, view *runView) error {
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	host := projectPluginHost(root, zap.NewNop())
	defer func() { _ = host.Close() }()
	ports := runPorts(g, root, host, view.errOut)
	if st, ok := ports.Runs.(runstore.Store); ok {
		ports.Runs = podRuns{Store: st, self: os.Getpid()}
	}
	uc := usecase.Run{RunPorts: ports, Root: root, View: view}
	return reported(uc.RunOrResume(ctx, req))
}

// podRuns is the run store as seen from a container: a pod started again after its run was
// killed gets the same process id the killed awf had (awf is often pid 1, or the shell's first
// child, in a fresh pid namespace), so a record or a resume lock naming this process's own id is
// from a process that is gone, not from this one, which has not started a run yet.
type podRuns struct {
	runstore.Store
	self int
}

// Alive reports pid as alive unless it is this process's own id.
func (p podRuns) Alive(pid int) bool { return pid != p.self && p.Store.Alive(pid) }

// resumeLockName is the resume lock's file name in a run's directory, as runstore.Store.Lock
// writes it.
const resumeLockName = "resume.lock"

// Lock takes the run's resume lock, first dropping a lock that names this process's own id
// (left by a killed resume in an earlier pod).
func (p podRuns) Lock(id string) (func(), error) {
	file := filepath.Join(p.Dir(id), resumeLockName)
	if data, err := os.ReadFile(file); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid == p.self {
			_ = os.Remove(file)
		}
	}
	return p.Store.Lock(id)
}
