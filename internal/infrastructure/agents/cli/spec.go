package cli

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// Spec is everything one agent CLI differs by. A provider package declares one; Provider runs
// any of them the same way.
type Spec struct {
	Name       string // the provider name workflows write: a workflow.Provider* constant
	Executable string // the binary looked up in PATH ("claude")
	Install    string // the command that installs the version the package was verified with
	// Options are the step options the CLI accepts (Common plus its own); Needs the options
	// that require another.
	Options []options.Option
	Needs   []options.Need
	// Unisolated names what the model is still offered beside the proxy's tools with
	// intercept_builtins, when the CLI cannot switch all of its built-ins off; "" when it can.
	Unisolated string
	// NeedsDir says whether a step without a proxy still needs private files (a system prompt
	// file, say). Nil means no.
	NeedsDir func(v options.Values) bool
	// PrivateHome says whether a call runs the CLI with a private home inside its private
	// directory (<dir>/home), where the CLI then also keeps its sessions. A call that keeps or
	// continues a session (KeepsHome) then runs in a directory kept for the whole run, found
	// again by session id, instead of one removed after the call. Nil means never.
	PrivateHome func(req ports.AgentRequest, v options.Values) bool
	// Plan builds the run. dir is the provider's private directory: <Attach.TempDir>/<provider>
	// with a proxy, a fresh temporary directory when NeedsDir asked for one, else "". base is
	// the environment the CLI inherits, for providers that read the user's settings from it.
	Plan func(req ports.AgentRequest, v options.Values, dir string, base []string) (Plan, error)
	// Hint says what to check when the CLI fails or awf stops it: this CLI's credentials and
	// endpoint settings. "" keeps the generic hint.
	Hint string
	// Watch reads the CLI's output as it runs and says when it cannot get anywhere, so the
	// step fails at once instead of at its timeout; nil watches nothing.
	Watch Watch
	// Parse reads the CLI's report. A *fault.Error is a failure the CLI itself reported and is
	// returned as is; any other error means the output could not be read.
	Parse func(r Result) (ports.AgentResult, error)
}

// Binary says where the CLI is looked for and how to install it.
func (s Spec) Binary() Binary {
	return Binary{Provider: s.Name, Name: s.Executable, Install: s.Install}
}

// Schema is the CLI's option table.
func (s Spec) Schema() options.Schema {
	return options.Schema{Provider: s.Name, Options: s.Options, Needs: s.Needs}
}

// Validate reports every problem with a step's options.
func (s Spec) Validate(opts map[string]any) []options.Problem { return s.Schema().Validate(opts) }

// IsolationWarning names what stays beside the proxy with intercept_builtins ("" when nothing
// does, or without intercept, where there is nothing to isolate).
func (s Spec) IsolationWarning(intercept bool) string {
	if !intercept {
		return ""
	}
	return s.Unisolated
}

// CheckWorkflow validates the options of every step on this CLI and warns about what cannot be
// isolated; it has validate.Check's signature.
func (s Spec) CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return options.CheckSteps(wf, s.Name, s.Validate, s.IsolationWarning)
}

// Provider implements ports.AgentProvider for one CLI. It holds only configuration, so one
// value serves any number of concurrent steps.
type Provider struct {
	spec Spec
	cfg  Config
}

// New returns the provider of spec; the zero Config inherits awf's environment and default
// limits.
func New(spec Spec, cfg Config) *Provider { return &Provider{spec: spec, cfg: cfg} }

// Name implements ports.AgentProvider.
func (p *Provider) Name() string { return p.spec.Name }

// Run implements ports.AgentProvider.
func (p *Provider) Run(ctx context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	return p.cfg.execute(ctx, p.spec, req)
}
