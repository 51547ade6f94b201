// Command awf runs YAML workflows whose steps are shell commands or AI coding agents, and stands
// between each agent and its tools through a per-step MCP proxy. This package is the composition
// root: it parses flags, wires adapters to use cases, and maps errors to exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		// The Bash sandbox helper (docs/decisions/0012-kernel-sandbox.md). Package confine's init has normally run it already,
		// before the CLI's packages were initialised; this catches a binary where it did not.
		os.Exit(sandbox.Main(os.Args[2:]))
	}
	os.Exit(execute(os.Args[1:]))
}

// execute runs the CLI and returns the exit code; main is kept to one line so tests can call this.
func execute(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first Ctrl+C awf stops its steps gracefully (SIGTERM, up to 5 s, SIGKILL).
		// Restoring the default handler makes a second Ctrl+C end awf at once; its children die
		// with it through their parent-death signal.
		<-ctx.Done()
		stop()
	}()
	cmd := commandFor(args)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return fault.ExitOK
	}
	var silent *exitError
	if errors.As(err, &silent) {
		return silent.code
	}
	code := fault.ExitCode(err)
	if fault.CodeOf(err) == "" && isUsageError(err) {
		code = fault.ExitUser
	}
	// Errors quote what servers, plugins and models said: escaped for the terminal.
	fmt.Fprintln(os.Stderr, "awf: "+visibleLines(secrets().String(err.Error())))
	return code
}

// exitError carries an exit code for a failure that the command already reported itself.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }
