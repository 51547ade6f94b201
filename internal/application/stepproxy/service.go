// Package stepproxy is the ToolProxyService of DESIGN §2: for an agent step with
// `mcp_proxy.enable`, it builds and checks the step's tools against the live plugin registry,
// then either hands the in-process tool session to the provider (OpenAI-compatible path) or
// writes the private `awf mcp-serve` config a CLI will spawn (CLI path). When the step ends it
// proves the proxy really served, stops stragglers, removes temp files and summarises the calls.
package stepproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Codes of the proxy lifecycle.
const (
	// ServerName is the MCP server name agents see (tools become mcp__awf__Read and the like).
	ServerName = "awf"
)

// RouterFactory builds the one router for a config: built-ins and plugin adapters, starting
// plugin processes as needed. cmd/awf supplies it from the infrastructure.
type RouterFactory func(ctx context.Context, cfg proxy.ServeConfig) (*routing.Router, error)

// Service prepares and finishes the proxy of each agent step of one run.
type Service struct {
	Build RouterFactory
	// AwfPath is the awf binary CLIs spawn as `awf mcp-serve`.
	AwfPath string
	RunID   string
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
	// StragglerGrace is how long an mcp-serve may outlive its CLI before it is killed.
	StragglerGrace time.Duration
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
	// Proxy is the step's mcp_proxy block; Prepare requires it enabled.
	Proxy *workflow.MCPProxy
	// Options are the step's provider options; api_key_env names a variable Bash must not see.
	Options map[string]any
	// Dir is the step's absolute working directory, the root the file tools are confined to.
	Dir string
}

// Prepare sets the proxy up for one agent step whose mcp_proxy is enabled.
func (s *Service) Prepare(ctx context.Context, st Step) (*Session, error) {
	p := st.Proxy
	dir := st.Dir
	stepDir, err := os.MkdirTemp(s.TempDir, "step-"+safe(st.Name)+"-")
	if err != nil {
		return nil, fault.Wrap(err, fault.SystemMCPProxySetup, "cannot create the private directory for step %q", st.Name)
	}
	sess := &Session{svc: s, step: st.Name, dir: stepDir, readyFile: filepath.Join(stepDir, "ready.json")}
	cfg := s.config(ctx, st, dir, sess.readyFile)
	router, err := s.Build(ctx, cfg)
	if err != nil {
		_ = os.RemoveAll(stepDir)
		return nil, err
	}
	exposure := routing.NewExposure(router, routing.IntentSettingsFromWorkflow(p.Intent))
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
	if err := writePrivateJSON(cfgFile, cfg); err != nil {
		_ = os.RemoveAll(stepDir)
		return nil, fault.Wrap(err, fault.SystemMCPProxySetup, "cannot write the mcp-serve config for step %q", st.Name)
	}
	sess.Attach = &ports.ProxyAttachment{
		ServerName:        ServerName,
		Command:           s.AwfPath,
		Args:              []string{"mcp-serve", "--config", cfgFile},
		Tools:             names,
		InterceptBuiltins: p.InterceptBuiltins,
		TempDir:           stepDir,
	}
	return sess, nil
}

func (s *Service) config(ctx context.Context, st Step, dir, ready string) proxy.ServeConfig {
	p := st.Proxy
	intercept := p.InterceptBuiltins
	strict := p.Intent.StrictServerValidation
	allow := p.Intent.Allow
	if allow == nil {
		allow = []tool.Variant{}
	}
	cfg := proxy.ServeConfig{
		RootDir:           dir,
		InterceptBuiltins: &intercept,
		Intent:            &proxy.Intent{Split: p.Intent.Split, Allow: allow, StrictServerValidation: &strict, RequireDeclaration: p.Intent.RequireDeclaration},
		ActivityFile:      s.ActivityFile,
		LogFile:           s.LogFile,
		ReadyFile:         ready,
		RunID:             s.RunID,
		Step:              st.Name,
		PluginsFile:       s.PluginsFile,
	}
	// A step may keep its model key in a variable of its own choosing; the agent's Bash must not
	// be able to print it.
	if name, ok := st.Options["api_key_env"].(string); ok && name != "" {
		cfg.HideEnv = append(cfg.HideEnv, name)
	}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "OTEL_") {
			if cfg.OTelEnv == nil {
				cfg.OTelEnv = map[string]string{}
			}
			cfg.OTelEnv[k] = v
		}
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	cfg.Traceparent = carrier["traceparent"]
	for _, pt := range p.PluginTools {
		cfg.PluginTools = append(cfg.PluginTools, proxy.PluginTools{Plugin: pt.Plugin, Expose: pt.Expose})
	}
	return cfg
}

// Finish ends the step's proxy. For a CLI step that otherwise succeeded it fails loudly when the
// proxy never served: an agent silently running without its tools is the failure to rule out.
// It always stops a straggling mcp-serve and removes the private files. The summary line counts
// the step's tool calls by tool, variant and outcome.
func (sess *Session) Finish(ctx context.Context, stepErr error) (summary string, err error) {
	defer func() { _ = os.RemoveAll(sess.dir) }()
	if sess.router != nil {
		_ = sess.router.Close()
	}
	if sess.Attach != nil {
		rec, readErr := readReady(sess.readyFile)
		switch {
		case readErr != nil && stepErr == nil:
			err = fault.New(fault.ExecutionMCPProxyNotServed, "step %q: the agent finished but awf's MCP proxy never started, so it ran without awf's tools", sess.step).
				WithHint("check the mcp-serve errors in %s and that the CLI supports the proxy flags", sess.svc.LogFile)
		case readErr == nil:
			sess.svc.stopStraggler(rec.PID)
		}
	}
	return sess.svc.summary(ctx, sess.step), err
}

type ready struct {
	PID   int      `json:"pid"`
	Tools []string `json:"tools"`
}

func readReady(path string) (ready, error) {
	var r ready
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, err
	}
	if r.PID <= 0 {
		return r, errors.New("ready record without pid")
	}
	return r, nil
}

// stopStraggler gives an mcp-serve whose client has gone a moment to notice stdin EOF, then
// terminates it. Its plugins die with it (they watch their parent).
func (s *Service) stopStraggler(pid int) {
	grace := s.StragglerGrace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	if s.Logger != nil {
		s.Logger.Warn("mcp-serve outlived its agent CLI; terminating it", zap.Int("pid", pid))
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// running reports whether pid is a live, non-zombie process of this machine.
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself hold spaces.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
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
	for _, r := range recs {
		if r.Step != step {
			continue
		}
		key := r.Tool + " " + string(r.Intent.Variant)
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
	return "tool calls: " + strings.Join(parts, ", ")
}

func writePrivateJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

func safe(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == os.PathSeparator || r == ' ' {
			return '_'
		}
		return r
	}, name)
}
