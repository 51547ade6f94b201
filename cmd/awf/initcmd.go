package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/spf13/cobra"
)

// starterWorkflow is the example `awf init` writes: command steps only, so that it runs at once,
// offline, with no agent CLI and no key; its comments point at the next thing to try.
const starterWorkflow = `# A first workflow: run it with  awf run hello -i name=you
# docs/getting-started.md goes on from here (an agent step, the proxy, the report).
name: hello
description: Greets someone, then counts the files in the project.
inputs:
  - name: name
    type: string
    required: true
    description: who to greet
states:
  initial: greet
  greet:
    type: command
    # {{.inputs.name}} reaches the shell as a value, never as code
    command: echo "Hello, {{.inputs.name}}!"
    on_success: count
  count:
    type: command
    command: find . -type f -not -path './.awf/*' | wc -l
    on_success: done
  done:
    type: terminal
    status: success
`

// starterIgnore keeps what awf writes while running out of version control.
const starterIgnore = "# written by awf while it runs: run state, activity, reports\nruns/\n"

func newInitCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create .awf/ in the current directory (or --root) with an example workflow",
		Long: `Create .awf/workflows/hello.yaml, an example that runs offline, and .awf/.gitignore, which
keeps run state out of git. Files that exist already are kept as they are.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := g.root
			if dir == "" {
				var err error
				if dir, err = os.Getwd(); err != nil {
					return fault.Wrap(err, fault.SystemFSCwd, "cannot read the current directory")
				}
			}
			return initProject(cmd.OutOrStdout(), dir)
		},
	}
}

// initProject writes the starter files under dir/.awf, keeping any that exist.
func initProject(w io.Writer, dir string) error {
	awfDir := filepath.Join(dir, ".awf")
	if err := os.MkdirAll(filepath.Join(awfDir, "workflows"), 0o755); err != nil {
		return fault.Wrap(err, fault.UserInitCannotWrite, "cannot create %s", awfDir).
			WithHint("check that the directory is writable, or pass --root")
	}
	for _, f := range []struct{ rel, body string }{
		{"workflows/hello.yaml", starterWorkflow}, {".gitignore", starterIgnore},
	} {
		path := filepath.Join(awfDir, f.rel)
		created, err := createNew(path, f.body)
		if err != nil {
			return fault.Wrap(err, fault.UserInitCannotWrite, "cannot write %s", path).
				WithHint("check that %s is a writable directory", awfDir)
		}
		verb := "kept   "
		if created {
			verb = "created"
		}
		fmt.Fprintf(w, "%s %s\n", verb, filepath.Join(".awf", f.rel))
	}
	fmt.Fprintln(w, "next: awf run hello -i name=you")
	return nil
}

// createNew writes body to path only if nothing is there: O_EXCL also refuses a symlink, so
// init never writes through a link planted in the project.
func createNew(path, body string) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.WriteString(body); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return false, err
	}
	return true, f.Close()
}
