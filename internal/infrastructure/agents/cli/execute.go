package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// Plan is everything a provider decided for one run.
type Plan struct {
	Args []string // after the binary, the prompt included
	// Defaults, Forced and Unset are BuildEnv's layers; the step's env option sits between
	// Defaults and Forced.
	Defaults map[string]string
	Forced   map[string]string
	Unset    []string
	// Dirs are created (0700) and Files written (0600, parents 0700) before the CLI starts.
	// Every path must lie inside the private directory the plan was given.
	Dirs  []string
	Files []File
}

// File is one private file of a run.
type File struct {
	Path string
	Data []byte
}

// execute runs one agent step on a CLI: options, binary, private files, environment, process,
// report. Private files of the run are removed when it ends, whatever the outcome.
func (c Config) execute(ctx context.Context, spec Spec, req ports.AgentRequest) (ports.AgentResult, error) {
	provider := spec.Name
	v, err := spec.Schema().Parse(req.Options)
	if err != nil {
		return ports.AgentResult{}, err
	}
	if a := req.Attach; a != nil && (a.ServerName == "" || a.Command == "") {
		return ports.AgentResult{}, fault.New(fault.ExecutionAgentSetup, "the proxy attachment of step %q names no server or command", req.Step)
	}
	base := c.environ()
	bin, err := spec.Binary().Resolve(v.String("binary"), req.Dir, BuildEnv(base, nil, v.Env("env"), nil, nil))
	if err != nil {
		return ports.AgentResult{}, err
	}
	dir, finish, err := callDir(ctx, spec, req, v)
	if err != nil {
		return ports.AgentResult{}, err
	}
	var sessionID string
	defer func() { finish(sessionID) }()
	plan, err := spec.Plan(req, v, dir, base)
	if err != nil {
		return ports.AgentResult{}, err
	}
	if err := makeDirs(dir, plan.Dirs); err != nil {
		return ports.AgentResult{}, err
	}
	if err := writeFiles(dir, plan.Files); err != nil {
		return ports.AgentResult{}, err
	}
	env := BuildEnv(base, plan.Defaults, v.Env("env"), plan.Forced, plan.Unset)
	res, err := c.Run(ctx, Command{Provider: provider, Path: bin, Args: plan.Args, Dir: req.Dir, Env: env, Watch: spec.Watch})
	if err != nil {
		return ports.AgentResult{}, spec.hinted(err)
	}
	out, err := Outcome(provider, res, spec.Parse)
	sessionID = out.SessionID
	return out, spec.hinted(err)
}

// callDir returns the call's private directory and what ends the call there, given the
// session id the CLI reported: a session directory kept for the run when the CLI keeps its
// sessions in a private home and the call keeps or continues one, else a directory removed
// after the call.
func callDir(ctx context.Context, spec Spec, req ports.AgentRequest, v options.Values) (string, func(sessionID string), error) {
	if spec.PrivateHome != nil && spec.PrivateHome(req, v) && (KeepsHome(req) || Continues(req)) {
		return sessionDir(ctx, spec.Name, req)
	}
	dir, cleanup, err := privateDir(spec.Name, req.Attach, spec.NeedsDir != nil && spec.NeedsDir(v))
	return dir, func(string) { cleanup() }, err
}

// Outcome turns a finished run into the step's result. What the CLI said in its report comes
// first (Claude exits 1 with a JSON report of an API error, which beats a bare "exit 1"); then
// a non-zero exit; then output that could not be read.
func Outcome(provider string, r Result, parse func(Result) (ports.AgentResult, error)) (ports.AgentResult, error) {
	out, err := parse(r)
	var fe *fault.Error
	switch {
	case err != nil && errors.As(err, &fe):
		return out, err
	case r.ExitCode != 0:
		return out, Failed(provider, r)
	case err != nil:
		return out, BadOutput(provider, r, err)
	}
	return out, nil
}

// privateDir returns the directory for a run's private files and what removes it.
func privateDir(provider string, attach *ports.ProxyAttachment, need bool) (string, func(), error) {
	noop := func() {}
	if attach != nil && attach.TempDir != "" {
		dir := filepath.Join(attach.TempDir, provider)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", noop, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create %s's private directory in %s", provider, attach.TempDir)
		}
		return dir, func() { _ = os.RemoveAll(dir) }, nil
	}
	if !need && attach == nil { // an attachment without a TempDir still needs somewhere private
		return "", noop, nil
	}
	dir, err := os.MkdirTemp("", "awf-"+provider+"-")
	if err != nil {
		return "", noop, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create a private directory for %s", provider).
			WithHint("check that TMPDIR is writable")
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}

// inside reports whether path lies strictly inside dir.
func inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return dir != "" && err == nil && rel != "." && rel != ".." &&
		!strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// makeDirs creates a plan's directories, refusing any outside dir.
func makeDirs(dir string, dirs []string) error {
	for _, d := range dirs {
		if !inside(dir, d) {
			return fault.New(fault.ExecutionAgentSetup, "refusing to create %s outside the private directory %q", d, dir)
		}
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create %s", d)
		}
	}
	return nil
}

// writeFiles writes a plan's files, refusing any path outside dir: a private file in the
// wrong place could be a user's own configuration.
func writeFiles(dir string, files []File) error {
	for _, f := range files {
		if !inside(dir, f.Path) {
			return fault.New(fault.ExecutionAgentSetup, "refusing to write %s outside the private directory %q", f.Path, dir)
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
			return fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create %s", filepath.Dir(f.Path))
		}
		if err := os.WriteFile(f.Path, f.Data, 0o600); err != nil {
			return fault.Wrap(err, fault.ExecutionAgentSetup, "cannot write %s", f.Path)
		}
		if err := os.Chmod(f.Path, 0o600); err != nil {
			return fault.Wrap(err, fault.ExecutionAgentSetup, "cannot restrict %s to its owner", f.Path)
		}
	}
	return nil
}
