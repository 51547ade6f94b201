package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/executions"
	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
	"github.com/awf-dev/awf/internal/infrastructure/httpapi"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/runindex"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/internal/infrastructure/turns"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

type serveFlags struct {
	host      string
	port      int
	tokenFile string
}

func newServeCmd(g *globalFlags) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--host 127.0.0.1] [--port 2511] [--token-file F]",
		Short: "Serve the HTTP API (the reference awf's) and a live page per run",
		Long: `Serve the project's workflows and runs over HTTP: the reference awf's API (/api/workflows,
/api/executions, /api/history, server-sent events of a run, /openapi.json), the run's HTML report,
and live pages (/ lists the runs, /runs/<id> shows one as it runs). Runs started through the API
run in this process through the same use case as awf run; runs started by awf run in the same
project show up too. Any address other than loopback needs --token-file: every request must then
carry Authorization: Bearer <token>. --port 0 picks a free port; the address is printed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd.Context(), g, f, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&f.host, "host", "127.0.0.1", "address to listen on; other than loopback, --token-file is required")
	cmd.Flags().IntVar(&f.port, "port", 2511, "port to listen on (0: any free port)")
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "file holding the bearer token every request must carry")
	return cmd
}

// serve listens until ctx ends (Ctrl+C, SIGTERM), then stops taking requests, cancels the runs
// it started (they end as interrupted and can be resumed) and waits for them.
func serve(ctx context.Context, g *globalFlags, f serveFlags, out io.Writer) error {
	token, err := serveToken(f)
	if err != nil {
		return err
	}
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	host := projectPluginHost(root, zap.NewNop())
	defer func() { _ = host.Close() }()
	ln, err := net.Listen("tcp", net.JoinHostPort(f.host, strconv.Itoa(f.port)))
	if err != nil {
		return fault.Wrap(err, fault.UserCLIInvalidArgs, "cannot listen on %s port %d", f.host, f.port).
			WithHint("choose another --port, or --port 0 for any free one")
	}
	exec := &executions.Service{Runs: projectRuns(root), Processes: process.Table{}, Base: ctx, PID: os.Getpid()}
	exec.Launch = launcher(g, root, host, exec.Observer)
	httpapi.Version = version
	srv := &http.Server{Handler: httpapi.New(serveDeps(root, host, exec, token)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "awf serve: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		err = srv.Shutdown(sctx)
	}
	exec.Wait()
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// serveToken reads --token-file and refuses a non-loopback address without one.
func serveToken(f serveFlags) (string, error) {
	if f.tokenFile == "" {
		if !isLoopback(f.host) {
			return "", fault.New(fault.UserCLIInvalidArgs, "awf serve on %q without a token would let anyone who can reach it run workflows", f.host).
				WithHint("give --token-file <file> (a long random token), or listen on 127.0.0.1")
		}
		return "", nil
	}
	data, err := os.ReadFile(f.tokenFile)
	if err != nil {
		return "", fault.Wrap(err, fault.UserCLIInvalidArgs, "cannot read the token file %s", f.tokenFile)
	}
	token := strings.TrimSpace(string(data))
	if len(token) < 16 || strings.ContainsAny(token, " \t\r\n") {
		return "", fault.New(fault.UserCLIInvalidArgs, "the token in %s is too short or holds spaces", f.tokenFile).
			WithHint("write one line of at least 16 characters, e.g. head -c 32 /dev/urandom | base64 > %s", f.tokenFile)
	}
	return token, nil
}

// isLoopback says whether host names only this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func projectRuns(root string) runstore.Store {
	return runstore.Store{Root: root, ActivityFile: activitylog.FileName}
}

// serveDeps wires the API to the project's workflows, runs and reports.
func serveDeps(root string, host *plugins.Host, exec *executions.Service, token string) httpapi.Deps {
	maskPluginEnv(root)
	store := projectRuns(root)
	return httpapi.Deps{
		Exec: exec,
		Events: executions.Sources{Runs: store, Redactor: secrets(), Terminal: terminals(),
			Activity: func(id string) ports.ActivitySource {
				return activitylog.FileStore{Path: filepath.Join(store.Dir(id), activitylog.FileName)}
			}},
		Runs:      usecase.Runs{Store: runindex.New(root, activitylog.FileName)},
		Workflows: yamlrepo.Repository{Root: root},
		Validator: validationServiceWith(root, host),
		Report: func(ctx context.Context, id string) ([]byte, error) {
			page, _, err := reportPage(ctx, root, id)
			return page, err
		},
		Redactor: secrets(),
		Token:    token,
		Approvals: func(id string) approvals.Dir {
			return approvals.Dir{Path: filepath.Join(store.Dir(id), approvals.DirName)}
		},
	}
}

// terminals answers whether a state of a run's workflow is a terminal, from the workflow file
// the run recorded (loaded once per file version).
func terminals() func(rec runrecord.Record, state string) bool {
	var mu sync.Mutex
	cache := map[string]map[string]bool{}
	return func(rec runrecord.Record, state string) bool {
		mu.Lock()
		defer mu.Unlock()
		ends, ok := cache[rec.SourceHash]
		if !ok {
			ends = map[string]bool{}
			if wf, _, err := yamlrepo.Load(rec.File); err == nil && wf != nil {
				for n, st := range wf.States {
					ends[n] = st.Ends()
				}
			}
			cache[rec.SourceHash] = ends
		}
		return ends[state]
	}
}

// launcher runs an API request through the run use case, as awf run and awf resume do, with a
// view that reports the run's id and keeps what it was shown before the run started.
func launcher(g *globalFlags, root string, host *plugins.Host, lines func(id string) run.Observer) executions.Launcher {
	return func(ctx context.Context, req executions.Request, started func(string)) error {
		view := &serveView{started: started, lines: lines}
		ports := runPorts(g, root, host, os.Stderr)
		ports.Turns = &turns.Lines{In: strings.NewReader(""), Out: io.Discard} // no terminal to ask
		uc := usecase.Run{RunPorts: ports, Root: root, View: view}
		var err error
		if req.ResumeID != "" {
			err = uc.Resume(ctx, usecase.ResumeRequest{ID: req.ResumeID, From: req.From, Inputs: req.Inputs})
		} else {
			err = uc.Do(ctx, usecase.RunRequest{Target: req.Workflow, Inputs: req.Inputs})
		}
		if view.runID == "" && err != nil {
			return view.refused(err)
		}
		return err
	}
}

// serveView is the run use case's view for a run started through the API: nobody watches a
// terminal, so it keeps the problems that stop a run before it starts and passes the output
// lines of its steps to the event streams.
type serveView struct {
	started  func(string)
	lines    func(id string) run.Observer
	runID    string
	problems []string
}

func (v *serveView) Warnings(fault.Diagnostics) {}

func (v *serveView) Invalid(rep validate.Report) {
	for _, d := range rep.Diagnostics.Errors() {
		v.problems = append(v.problems, d.String())
	}
}

func (v *serveView) InputProblems(ds fault.Diagnostics) {
	for _, d := range ds {
		v.problems = append(v.problems, d.String())
	}
}

func (v *serveView) Started(_ string, runID string) run.Observer {
	v.runID = runID
	v.started(runID)
	return v.lines(runID) // output lines to the event streams as they come
}

func (v *serveView) Finished(*run.Result, error, string) {}

// refused is the error of a request stopped before its run started: the view's problems, or
// the use case's own error when it showed none.
func (v *serveView) refused(err error) error {
	if executions.IsNotFound(err) {
		return err
	}
	var r *usecase.Reported
	if len(v.problems) == 0 && !errors.As(err, &r) {
		if fault.ExitCode(err) != fault.ExitUser {
			return err
		}
		v.problems = []string{err.Error()}
	}
	return &executions.Refused{Problems: v.problems}
}
