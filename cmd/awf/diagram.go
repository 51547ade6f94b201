package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	appdiagram "github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/diagram"
)

type diagramFlags struct {
	out, direction, highlight string
}

func newDiagramCmd(g *globalFlags) *cobra.Command {
	var f diagramFlags
	cmd := &cobra.Command{
		Use:   "diagram <name|path>",
		Short: "Draw a workflow's state machine as DOT, Mermaid, SVG or PNG",
		Long: `Draw the workflow's states and transitions. Without -o, DOT goes to stdout. The output file's
extension picks the format: .dot, .mmd (Mermaid, renders on GitHub), .svg or .png (these two need
Graphviz's dot, Debian package graphviz). A workflow with errors still draws if it parses.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiagram(cmd, g, args[0], f, diagram.Graphviz{})
		},
	}
	cmd.Flags().StringVarP(&f.out, "output", "o", "", "write to this file (.dot, .mmd, .svg, .png)")
	cmd.Flags().StringVar(&f.direction, "direction", "TB", "layout direction: TB or LR")
	cmd.Flags().StringVar(&f.highlight, "highlight", "", "state to mark")
	return cmd
}

func runDiagram(cmd *cobra.Command, g *globalFlags, target string, f diagramFlags, r ports.DiagramRenderer) error {
	if err := checkFormat(f.direction, "TB", "LR"); err != nil {
		return err
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(f.out)), ".")
	if f.out == "" {
		format = "dot"
	}
	if err := checkFormat(format, "dot", "mmd", "svg", "png"); err != nil {
		return err
	}
	wf, err := loadForDiagram(cmd, g, target)
	if err != nil {
		return err
	}
	gr, err := appdiagram.Build(wf, appdiagram.Options{Direction: f.direction, Highlight: f.highlight})
	if err != nil {
		return fault.Wrap(err, fault.UserCLIInvalidArgs, "cannot draw workflow '%s'", wf.Name)
	}
	data, err := diagramBytes(cmd, gr, format, r)
	if err != nil {
		return err
	}
	if f.out == "" {
		_, err = cmd.OutOrStdout().Write(data)
		return err
	}
	if err := os.WriteFile(f.out, data, 0o644); err != nil {
		return fault.Wrap(err, fault.SystemDiagramWrite, "cannot write %s", f.out)
	}
	return nil
}

func diagramBytes(cmd *cobra.Command, gr *appdiagram.Graph, format string, r ports.DiagramRenderer) ([]byte, error) {
	switch format {
	case "mmd":
		return []byte(diagram.Mermaid(gr)), nil
	case "dot":
		return []byte(diagram.DOT(gr)), nil
	}
	return r.Render(cmd.Context(), diagram.DOT(gr), format)
}

// loadForDiagram loads the workflow as `awf validate` does. One with errors still draws, after its
// problems and a warning on stderr; one that did not parse into any state is refused.
func loadForDiagram(cmd *cobra.Command, g *globalFlags, target string) (*workflow.Workflow, error) {
	svc, done, err := validationService(g)
	if err != nil {
		return nil, err
	}
	defer done()
	rep, err := svc.Validate(cmd.Context(), target)
	if err != nil {
		return nil, err
	}
	if rep.Valid() {
		return rep.Workflow, nil
	}
	for _, d := range rep.Diagnostics {
		fmt.Fprintln(cmd.ErrOrStderr(), d.String())
	}
	if rep.Workflow == nil || len(rep.Workflow.States) == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "Workflow '%s' has no states to draw\n", rep.Name)
		return nil, &exitError{code: fault.ExitUser}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "warning: workflow '%s' has %d error(s); drawing it anyway\n", rep.Name, len(rep.Diagnostics.Errors()))
	return rep.Workflow, nil
}
