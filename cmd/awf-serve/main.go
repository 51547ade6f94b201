// Command awf-serve is awf's slim MCP server: `awf-serve mcp-serve --config <file>` serves one
// agent step's tools exactly as `awf mcp-serve` does, for the steps without plugin tools and
// without span export. Agent CLIs spawn it per step and wait for its tools/list before the model
// starts, so its start-up is on every step's path: it links neither the gRPC plugin host nor the
// OTLP exporters nor the workflow engine, whose package initialisation made up most of awf's
// (docs/decisions/0015-performance-at-the-floor.md). A config it cannot serve is handed to the awf binary beside it, by exec, so the
// CLI's process stays the server's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

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
	err := run(ctx, args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return fault.ExitOK
	}
	code := fault.ExitCode(err)
	if fault.CodeOf(err) == "" {
		code = fault.ExitUser // usage errors
	}
	fmt.Fprintln(os.Stderr, "awf-serve: "+redact.New(os.Environ()).String(err.Error()))
	return code
}

// usage is the help text. awf-serve has one command and three flags, parsed with the standard
// library: a command-line library (cobra, as awf uses) would add its package initialisation to
// every agent step's cold start.
const usage = `awf-serve is awf's slim MCP server, spawned by agent CLIs for one step.

Usage:
  awf-serve ` + servecmd.Use + `
  awf-serve --version

` + servecmd.Short + `. Flags of mcp-serve:
`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Print(usage)
		return nil
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Print(usage)
		flags(os.Stdout).PrintDefaults()
		return nil
	case "-v", "--version", "version":
		fmt.Println("awf-serve version " + version)
		return nil
	case "mcp-serve":
	default:
		return fmt.Errorf("unknown command %q; awf-serve runs `%s` (see awf-serve --help)", args[0], servecmd.Use)
	}
	fs := flags(io.Discard) // a parse error is printed once, by execute
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Print(usage)
			flags(os.Stdout).PrintDefaults()
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("mcp-serve takes no arguments, got %q", fs.Args())
	}
	f := servecmd.Flags{
		Config:      fs.Lookup(servecmd.ConfigFlag).Value.String(),
		Turn:        fs.Lookup(servecmd.TurnFlag).Value.(flag.Getter).Get().(int),
		TuneRuntime: fs.Lookup(servecmd.TuneFlag).Value.(flag.Getter).Get().(bool),
	}
	return servecmd.Run(ctx, servecmd.Options{Version: version, Handoff: handoff}, f)
}

// flags is mcp-serve's flag set: -config and --config, with the value after = or a space, as
// cobra reads them in awf; --tune-runtime=false turns the runtime tuning off.
func flags(out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp-serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.String(servecmd.ConfigFlag, "", servecmd.ConfigUsage)
	fs.Int(servecmd.TurnFlag, 0, servecmd.TurnUsage)
	fs.Bool(servecmd.TuneFlag, true, servecmd.TuneUsage)
	return fs
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
