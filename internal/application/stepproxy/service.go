// Package stepproxy is the ToolProxyService of docs/design.md#tool-call-paths: for an agent step with
// `mcp_proxy.enable`, it builds and checks the step's tools against the live plugin registry,
// then either hands the in-process tool session to the provider (OpenAI-compatible path) or
// writes the private `awf mcp-serve` config a CLI will spawn (CLI path). When the step ends it
// proves the proxy really served, stops stragglers, removes temp files and summarises the calls.
package stepproxy

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ServerName is the MCP server name agents see (tools become mcp__awf__Read and the like).
const ServerName = "awf"

// DefaultStragglerGrace is how long an mcp-serve may outlive its CLI, and then how long it gets
// after SIGTERM, when Service.StragglerGrace is not set.
const DefaultStragglerGrace = 2 * time.Second

// RouterFactory builds the one router for a toolset: built-ins and plugin adapters, starting
// plugin processes as needed. cmd/awf supplies it from the infrastructure.
type RouterFactory func(ctx context.Context, spec toolset.Spec) (*routing.Router, error)

// Service prepares and finishes the proxy of each agent step of one run.
type Service struct {
	Build RouterFactory
	// AwfPath is the awf binary CLIs spawn as `awf mcp-serve`.
	AwfPath string
	// SlimPath, when set, is the slim awf-serve binary, spawned instead for the steps it serves
	// alone (no plugin tools, no span export): it starts in about half awf's time.
	SlimPath string
	// PluginCommands resolves the executables a plugins.yaml declares, so the proxy protects
	// them without parsing the file itself; nil leaves that to the proxy.
	PluginCommands func(file string) []string
	RunID          string
	// TempDir is the run's private temp dir (0700); per-step dirs go inside and are removed.
	TempDir      string
	ActivityFile string
	LogFile      string
	PluginsFile  string
	// Activity reads records back for the step summary; nil skips the summary.
	Activity ports.ActivitySource
	Logger   *zap.Logger
	// InProcess names providers that call tools themselves (no mcp-serve subprocess).
	InProcess map[string]bool
	// StragglerGrace is how long an mcp-serve may outlive its CLI before it is terminated, and
	// how long it then gets before it is killed.
	StragglerGrace time.Duration
	// Files makes, writes and removes the per-step private files.
	Files ports.PrivateFiles
	// Handoff writes the mcp-serve config and reads its ready record.
	Handoff ports.ToolsetHandoff
	// Processes stops an mcp-serve that outlives its CLI.
	Processes ports.Processes
	// Env is the run's environment, whose OTEL_* variables the subprocess gets; nil forwards none.
	Env ports.Environment
	// Approver makes the approver of an in-process step whose intent.ask is set, over the run's
	// approvals directory (an mcp-serve subprocess makes its own from the config); nil leaves
	// such calls with nobody to ask, so they are refused.
	Approver func(spec toolset.Spec) routing.Approver
}

// Session is one step's proxy.
type Session struct {
	svc       *Service
	step      string
	dir       string
	readyFile string
	router    *routing.Router
	// Tools is set for in-process providers.
	Tools ports.ToolSession
	// Attach is set for CLI providers.
	Attach *ports.ProxyAttachment
}

// Step is what the proxy needs to know of one agent step: kept apart from workflow.State so the
// run engine, `awf call --workflow --step` and tests build it the same way.
type Step struct {
	Name     string
	Provider string
	// Proxy is the step's mcp_proxy block; Prepare requires it enabled. Spec takes nil as the
	// defaults (built-ins on, the default intent rule, no plugin tools).
	Proxy *workflow.MCPProxy
	// Options are the step's provider options; api_key_env names a variable Bash must not see.
	Options map[string]any
	// Dir is the step's absolute working directory, the root the file tools are confined to.
	Dir string
}

// Prepare sets the proxy up for one agent step whose mcp_proxy is enabled.
func (s *Service) Prepare(ctx context.Context, st Step) (*Session, error) {
	stepDir, err := s.Files.MakeDir(s.TempDir, "step-"+safe(st.Name)+"-")
	if err != nil {
		return nil, fault.Wrap(err, fault.SystemMCPProxySetup, "cannot create the private directory for step %q", st.Name)
	}
	sess := &Session{svc: s, step: st.Name, dir: stepDir, readyFile: filepath.Join(stepDir, "ready.json")}
	spec := s.Spec(ctx, st)
	spec.ReadyFile = sess.readyFile
	router, err := s.Build(ctx, spec)
	if err != nil {
		_ = s.Files.RemoveAll(stepDir)
		return nil, err
	}
	settings := routing.IntentSettingsFromToolset(spec.Intent)
	if len(settings.Ask) > 0 && s.Approver != nil && spec.ApprovalsDir != "" {
		settings.Approver = s.Approver(spec)
	}
	exposure := routing.NewExposure(router, settings)
	if s.InProcess[st.Provider] {
		sess.router, sess.Tools = router, exposure
		return sess, nil
	}
	names := make([]string, 0)
	for _, d := range exposure.ListTools() {
		names = append(names, d.Name)
	}
	// The subprocess builds its own router; the parent's copy only proved the config works.
	_ = router.Close()
	cfgFile := filepath.Join(stepDir, "mcp-serve.json")
	if err := s.Handoff.WriteSpec(cfgFile, spec); err != nil {
		_ = s.Files.RemoveAll(stepDir)
		return nil, fault.Wrap(err, fault.SystemMCPProxySetup, "cannot write the mcp-serve config for step %q", st.Name)
	}
	sess.Attach = &ports.ProxyAttachment{
		ServerName:        ServerName,
		Command:           s.serveBinary(spec),
		Args:              []string{"mcp-serve", "--config", cfgFile},
		Tools:             names,
		InterceptBuiltins: spec.Builtins,
		TempDir:           stepDir,
	}
	return sess, nil
}

// Finish ends the step's proxy. For a CLI step that otherwise succeeded it fails loudly when the
// proxy never served: an agent silently running without its tools is the failure to rule out.
// It always stops a straggling mcp-serve and removes the private files. The summary line counts
// the step's tool calls by tool, variant and outcome.
func (sess *Session) Finish(ctx context.Context, stepErr error) (summary string, err error) {
	defer func() { _ = sess.svc.Files.RemoveAll(sess.dir) }()
	if sess.router != nil {
		_ = sess.router.Close()
	}
	if sess.Attach != nil {
		rec, readErr := sess.svc.Handoff.ReadReady(ctx, sess.readyFile)
		if readErr == nil {
			sess.svc.stopStraggler(ctx, rec.PID)
		} else if stepErr == nil {
			err = fault.New(fault.ExecutionMCPProxyNotServed, "step %q: the agent finished but awf's MCP proxy never started, so it ran without awf's tools", sess.step).
				WithHint("check the mcp-serve errors in %s and that the CLI supports the proxy flags", sess.svc.LogFile)
		}
	}
	return sess.svc.summary(ctx, sess.step), err
}

// stopStraggler gives an mcp-serve whose client has gone a grace period to notice stdin EOF,
// then terminates it, and kills it if it is still there after another grace period. Its plugins
// die with it (they watch their parent).
func (s *Service) stopStraggler(ctx context.Context, pid int) {
	grace := s.StragglerGrace
	if grace <= 0 {
		grace = DefaultStragglerGrace
	}
	if s.exited(ctx, pid, grace) {
		return
	}
	if s.Logger != nil {
		s.Logger.Warn("mcp-serve outlived its agent CLI; terminating it", zap.Int("pid", pid))
	}
	_ = s.Processes.Terminate(pid)
	if s.exited(ctx, pid, grace) {
		return
	}
	_ = s.Processes.Kill(pid)
}

// exited waits up to grace for pid to exit.
func (s *Service) exited(ctx context.Context, pid int, grace time.Duration) bool {
	wctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	return s.Processes.WaitExit(wctx, pid) == nil
}

// summary counts the step's calls, e.g. "tool calls: Read×2 read, Bash×1 destructive refused".
func (s *Service) summary(ctx context.Context, step string) string {
	if s.Activity == nil {
		return ""
	}
	recs, err := s.Activity.List(ctx, activity.Filter{RunID: s.RunID})
	if err != nil {
		return ""
	}
	counts := map[string]int{}
	var confined confinedCalls
	for _, r := range recs {
		if r.Step != step {
			continue
		}
		confined.add(r)
		key := r.Tool + " " + string(r.Effective()) // the honest variant: a write declared read counts as write
		if r.Outcome != activity.OutcomeSuccess {
			key += " " + string(r.Outcome)
		}
		counts[key]++
	}
	if len(counts) == 0 {
		return "tool calls: none"
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		name, rest, _ := strings.Cut(k, " ")
		parts = append(parts, fmt.Sprintf("%s×%d %s", name, counts[k], strings.TrimSpace(rest)))
	}
	return "tool calls: " + strings.Join(parts, ", ") + confined.String()
}

func safe(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == filepath.Separator || r == ' ' {
			return '_'
		}
		return r
	}, name)
}

// serveBinary is the binary that serves spec: the slim one when there is one and the step needs
// nothing only awf links (it would hand the step over anyway, one exec later). The rule is
// spec.Binary's, the same that writes serve_with into the config.
func (s *Service) serveBinary(spec toolset.Spec) string {
	if s.SlimPath == "" || spec.Binary() == toolset.AWFBinary {
		return s.AwfPath
	}
	return s.SlimPath
}
