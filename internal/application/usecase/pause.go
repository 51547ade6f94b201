package usecase

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// pauser is the run observer of `awf run --interactive` and `--breakpoint`: before a step it
// stops the run (the engine waits for its observers) and asks on the terminal whether to go on.
// Interactive pauses before every main-flow state; breakpoints before the states they name,
// also inside loops and branches. Answers: c (or Enter) continue, a abort (the run ends
// interrupted and can be resumed), i inspect the state, r run to the end without pausing. The
// end of the input runs to the end.
type pauser struct {
	mu     sync.Mutex // one question at a time, also from parallel branches
	in     *bufio.Reader
	out    io.Writer
	wf     *workflow.Workflow
	all    bool
	at     map[string]bool
	cancel context.CancelFunc
	off    bool // r was answered, or the input ended
}

// newPauser checks the breakpoints against the workflow's states.
func newPauser(wf *workflow.Workflow, in io.Reader, out io.Writer, all bool, breakpoints []string, cancel context.CancelFunc) (*pauser, error) {
	if in == nil {
		in = strings.NewReader("") // no terminal: nothing to answer, the run goes on
	}
	if out == nil {
		out = io.Discard
	}
	p := &pauser{in: bufio.NewReader(in), out: out, wf: wf, all: all, at: map[string]bool{}, cancel: cancel}
	for _, b := range breakpoints {
		for _, name := range strings.Split(b, ",") {
			name = strings.TrimSpace(name)
			if _, ok := wf.States[name]; !ok {
				return nil, fault.New(fault.UserCLIUnknownStep, "--breakpoint %s: workflow %q has no state %q", name, wf.Name, name).
					WithHint("%s", suggest.DidYouMean(name, wf.Order))
			}
			p.at[name] = true
		}
	}
	return p, nil
}

// Observe implements run.Observer.
func (p *pauser) Observe(e run.Event) {
	s, ok := e.(run.StepStarted)
	if !ok || !(p.at[s.Name] || (p.all && s.Within == "")) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	where := s.Name
	if s.Within != "" {
		where = s.Within + " › " + s.Name
	}
	for !p.off {
		fmt.Fprintf(p.out, "⏸ before %s — [c]ontinue, [a]bort, [i]nspect, [r]un to the end: ", printable(where))
		line, err := p.in.ReadString('\n')
		answer := strings.ToLower(strings.TrimSpace(line))
		if err != nil && answer == "" {
			fmt.Fprintln(p.out, "\n(no more input: running to the end)")
			p.off = true
			return
		}
		switch answer {
		case "", "c", "continue":
			return
		case "a", "abort":
			fmt.Fprintln(p.out, "aborting: the run stops here as interrupted (awf resume continues it)")
			p.cancel()
			return
		case "r", "run":
			p.off = true
			return
		case "i", "inspect":
			p.inspect(s.Name)
		default:
			fmt.Fprintf(p.out, "unknown answer %q: type c, a, i or r\n", printable(answer))
		}
	}
}

// inspect prints what the state is about to do, as written in the workflow.
func (p *pauser) inspect(name string) {
	st := p.wf.States[name]
	if st == nil {
		return
	}
	fmt.Fprintf(p.out, "  state %s (%s)\n", printable(name), st.Type)
	if st.Description != "" {
		fmt.Fprintf(p.out, "  %s\n", printable(st.Description))
	}
	if c, ok := st.Spec.(*workflow.CommandSpec); ok && c.Command != "" {
		fmt.Fprintf(p.out, "  command: %s\n", printable(c.Command))
	}
	for _, exit := range []struct{ k, v string }{{"on_success", st.OnSuccess}, {"on_failure", st.OnFailure}} {
		if exit.v != "" {
			fmt.Fprintf(p.out, "  %s → %s\n", exit.k, printable(exit.v))
		}
	}
}

// printable is s with control characters escaped, so a name or text from the workflow cannot
// move the cursor or rewrite the terminal's title.
func printable(s string) string {
	q := strconv.QuoteToGraphic(s)
	q = q[1 : len(q)-1]
	return strings.ReplaceAll(q, `\"`, `"`)
}

// startGuard refuses to start a command once the run's context is done: a run aborted at a
// breakpoint (or interrupted between two steps) must not start the step it stopped before.
type startGuard struct{ ports.CommandRunner }

// RunCommand implements ports.CommandRunner.
func (g startGuard) RunCommand(ctx context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	if err := ctx.Err(); err != nil {
		return ports.CommandResult{}, err
	}
	return g.CommandRunner.RunCommand(ctx, req)
}
