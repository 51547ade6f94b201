package main

import (
	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/infrastructure/osenv"
)

// hostInfo is what a run shows as .awf and .context, read from this process.
func hostInfo() run.Host {
	h := osenv.Host()
	return run.Host{AWF: h.AWF, WorkingDir: h.WorkingDir, User: h.User, Hostname: h.Hostname}
}
