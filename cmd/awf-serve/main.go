// Command awf-serve is awf's slim MCP server: `awf-serve mcp-serve --config <file>` serves one
// agent step's tools exactly as `awf mcp-serve` does, for the steps without plugin tools and
// without span export. Agent CLIs spawn it per step and wait for its tools/list before the model
// starts, so its start-up is on every step's path: it links neither the gRPC plugin host nor the
// OTLP exporters nor the workflow engine, whose package initialisation made up most of awf's
// (issue 15). A config it cannot serve is handed to the awf binary beside it, by exec, so the
// CLI's process stays the server's.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/cmd/internal/servecmd"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// version is set at build time (-ldflags -X main.version=...).
var version = "dev"

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		// The Bash sandbox helper re-executes this binary (package confine's init normally ran it).
		os.Exit(sandbox.Main(os.Args[2:]))
	}
	os.Exit(execute(os.Args[1:]))
}

func execute(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := &cobra.Command{Use: "awf-serve", Version: version, SilenceUsage: true, SilenceErrors: true}
	// No completion command: nobody types awf-serve, and cobra builds that command on every start.
	root.CompletionOptions.DisableDefaultCmd = true
	// No completion command: nobody types awf-serve, and cobra builds that command on every start.
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(servecmd.New(servecmd.Options{Version: version, Handoff: handoff}))
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return fault.ExitOK
	}
	code := fault.ExitCode(err)
	if fault.CodeOf(err) == "" {
		code = fault.ExitUser // cobra's usage errors
	}
	fmt.Fprintln(os.Stderr, "awf-serve: "+redact.New(os.Environ()).String(err.Error()))
	return code
}

// handoff replaces this process with `awf mcp-serve` for a config that needs what only awf
// links. It returns nil to serve here.
func handoff(cfg toolset.Spec) error {
	if !servecmd.NeedsAWF(cfg, os.Getenv) {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fault.Wrap(err, fault.SystemMCPServeStart, "cannot find awf-serve's own path to hand the step to awf")
	}
	awf := filepath.Join(filepath.Dir(self), "awf")
	// The same arguments: mcp-serve, --config, and --turn in a conversation.
	argv := append([]string{awf}, os.Args[1:]...)
	err = syscall.Exec(awf, argv, os.Environ())
	if errors.Is(err, os.ErrNotExist) {
		return fault.Wrap(err, fault.SystemMCPServeStart, "this step needs plugin tools or span export, which awf-serve hands to %s, and that file is missing", awf).
			WithHint("install awf-serve and awf side by side (make build does)")
	}
	return fault.Wrap(err, fault.SystemMCPServeStart, "cannot hand the step to %s", awf)
}
