package usecase

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CallRunID labels the activity of one-off `awf call` invocations; they share one run, "cli",
// so `awf activity list --run cli` shows them.
const CallRunID = "cli"

// CallRequest is one `awf call` as typed.
type CallRequest struct {
	// Kind is tool-read, tool-write or tool-destructive.
	Kind string
	Tool string
	// Args is the tool's arguments as JSON; empty means {}.
	Args        string
	Reason      string
	Sensitivity string
	// Workflow and Step, both or neither, take the step's proxy settings.
	Workflow string
	Step     string
	// Strict, when set, overrides the step's strict_server_validation.
	Strict *bool
}

// Check parses the call's kind and arguments, before anything is started.
func (r CallRequest) Check() (tool.Variant, json.RawMessage, error) {
	variant, ok := strings.CutPrefix(r.Kind, "tool-")
	if !ok || !tool.Variant(variant).Valid() {
		return "", nil, fault.New(fault.UserCLIInvalidVariant, "unknown call kind %q", r.Kind).WithHint("use tool-read, tool-write or tool-destructive")
	}
	args := r.Args
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) {
		return "", nil, fault.New(fault.UserCLIInvalidArgs, "--args is not valid JSON").WithHint(`pass a JSON object, e.g. --args '{"file_path":"README.md"}'`)
	}
	return tool.Variant(variant), json.RawMessage(args), nil
}

// Call is `awf call`: one tool call through the same router and intent rule as an agent's.
type Call struct {
	// Validator loads the workflow named by --workflow.
	Validator Validator
	// Root is the project root: the file tools' root.
	Root string
	// Proxy builds the step's toolset exactly as `awf run` does (its RunID is CallRunID).
	Proxy *stepproxy.Service
}

// Do makes the call. A tool that ran and failed, or a refused call, is a Result with IsError;
// an error means the call could not be made. An invalid workflow is an *InvalidWorkflowError.
func (c Call) Do(ctx context.Context, req CallRequest) (tool.Result, error) {
	variant, args, err := req.Check()
	if err != nil {
		return tool.Result{}, err
	}
	step := stepproxy.Step{Dir: c.Root}
	if req.Workflow != "" || req.Step != "" {
		st, err := c.step(ctx, req.Workflow, req.Step)
		if err != nil {
			return tool.Result{}, err
		}
		step.Name = st.Name
		if a := st.Agent(); a != nil {
			step.Provider, step.Proxy, step.Options = a.Provider, a.MCPProxy, a.Options
		}
	}
	spec := c.Proxy.Spec(ctx, step)
	settings := routing.IntentSettingsFromToolset(spec.Intent)
	if req.Strict != nil {
		settings.Strict = *req.Strict
	}
	router, err := c.Proxy.Build(ctx, spec)
	if err != nil {
		return tool.Result{}, err
	}
	defer func() { _ = router.Close() }()
	exp := routing.NewExposure(router, settings)
	return exp.Call(ctx, variant, req.Tool, args, tool.Intent{DataSensitivity: req.Sensitivity, Reason: req.Reason}), nil
}

// step loads a valid workflow and returns one of its states.
func (c Call) step(ctx context.Context, wfName, stepName string) (*workflow.State, error) {
	if wfName == "" || stepName == "" {
		return nil, fault.New(fault.UserCLIMissingFlag, "--workflow and --step go together").WithHint("pass both, e.g. --workflow review --step review")
	}
	rep, err := c.Validator.Validate(ctx, wfName)
	if err != nil {
		return nil, err
	}
	if !rep.Valid() {
		return nil, &InvalidWorkflowError{Report: rep}
	}
	st, ok := rep.Workflow.States[stepName]
	if !ok {
		return nil, fault.New(fault.UserCLIUnknownStep, "workflow %q has no step %q", rep.Name, stepName).WithHint("%s", suggest.DidYouMean(stepName, rep.Workflow.Order))
	}
	return st, nil
}
