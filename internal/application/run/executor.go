package run

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Executor runs the states of one kind. The scheduler calls it once per visit of a state, with
// the step's context (its timeout already applied), the scope the state's templates see, and
// steps, through which a state made of other states (a loop's body, a parallel state's
// branches) runs them; executors of the other kinds ignore it. The scheduler keeps what no kind
// should own: which state comes next, spans, events, retries. Where the run goes is the
// Outcome's Then, never a field set on the side.
//
// A returned error is the step's own work failing (a process, an endpoint, the proxy): the
// scheduler sorts it into a timeout, an interrupt or a failed step, and records the Outcome as
// far as it got. An error in the workflow itself (a template that does not render, a prompt
// file that cannot be read) must stop the run instead: wrap it with Stop.
type Executor interface {
	Execute(ctx context.Context, st *workflow.State, scope Scope, steps Steps) (Outcome, error)
}

// Steps is the capability the scheduler lends an executor to run member states as steps of
// their own, each with its span, log lines, events, retry and timeout, and, in a resumed run,
// taken from the record instead of run again when it had finished. It keeps the scheduler out
// of reach: an executor sees the members it runs, never the walk around it.
type Steps interface {
	// Run runs member state name in scope and returns it with its result recorded in the
	// step's Scope. Its transitions are not followed (a parallel state's branches). The error
	// stops the run.
	Run(ctx context.Context, name string, scope Scope) (Step, error)
	// Follow is Run for a member whose transitions count (a loop's body): Result.Next is the
	// state they lead to, "" when none does.
	Follow(ctx context.Context, name string, scope Scope) (Step, error)
	// Skip reports member name as a failed step that never ran, failed by why: so
	// states.<name> exists and says so.
	Skip(name string, scope Scope, why error) Step
	// Workflow is the workflow the members are found in.
	Workflow() *workflow.Workflow
	// Log is the run's log, for what the executor has to say of the state as a whole.
	Log() *zap.Logger
}

// Step is a member state run through Steps.
type Step struct {
	Result StepResult
	// Scope is the scope the member ran in, with its result recorded.
	Scope Scope
}

// Outcome is what an executor reports of one visit.
type Outcome struct {
	Status   StepStatus
	Output   string
	Stderr   string
	ExitCode int
	Error    string
	// Tools summarises the step's tool calls through awf's proxy.
	Tools string
	// JSON is the parsed answer of an agent step with output_format: json.
	JSON any
	// Response is the step's structured result (an operation's outputs, a sub-workflow's mapped
	// outputs), read as states.<name>.Response.<key>.
	Response map[string]any
	// Session is the conversation of an agent step that tracks one (conversation: or mode:
	// conversation), which a later step can continue.
	Session *ports.AgentSession
	// Iterations, Exhausted and Note are a loop's: how many iterations ran, whether it stopped
	// at max_iterations with its condition unmet, and that in words.
	Iterations int
	Exhausted  bool
	Note       string
	// Then is where the state sends the run: the zero value follows its transitions.
	Then Transition
	// Scope, when set, is the scope the state leaves behind: loops and parallel states record
	// their body and branch states' results in it.
	Scope *Scope
}

// stopError marks an error that stops the run rather than failing the step.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }
func (e stopError) Unwrap() error { return e.err }

// Stop marks err, returned by an executor, as an error in the workflow itself: the run stops
// with err instead of following on_failure.
func Stop(err error) error { return stopError{err} }

// stopped returns the error wrapped by Stop, if err is one.
func stopped(err error) (error, bool) {
	var s stopError
	if errors.As(err, &s) {
		return s.err, true
	}
	return nil, false
}

// executorFor returns the executor of st's kind. A kind without one is an error, never a
// shell command.
func executorFor(executors map[workflow.StateType]Executor, st *workflow.State) (Executor, error) {
	if x := executors[st.Type]; x != nil {
		return x, nil
	}
	return nil, fault.New(fault.SystemRunNoExecutor, "state %q is of kind %q, which this awf cannot execute", st.Name, st.Type).
		WithHint("validate the workflow first (awf validate)")
}

// checkExecutors reports the first kind of kinds without an executor.
func checkExecutors(executors map[workflow.StateType]Executor, kinds []workflow.StateType) error {
	for _, k := range kinds {
		if executors[k] == nil {
			return fault.New(fault.SystemRunNoExecutor, "the run engine has no executor for %s states", k)
		}
	}
	return nil
}

// paths resolves the directories and files steps name against the project root.
type paths struct{ root string }

// resolve makes p relative to the root, unless it is absolute or there is no root.
func (p paths) resolve(path string) string {
	if strings.HasPrefix(path, "/") || p.root == "" {
		return path
	}
	return p.root + "/" + path
}

// stepDir renders a step's `dir` and resolves it; "" means the root.
func (p paths) stepDir(st *workflow.State, dir string, scope Scope) (string, error) {
	if dir == "" {
		return p.root, nil
	}
	d, err := render(st.Name+".dir", dir, scope, st.KeyPos["dir"])
	if err != nil {
		return "", err
	}
	return p.resolve(d), nil
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
