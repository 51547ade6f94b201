package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	apprep "github.com/awf-dev/awf/internal/application/report"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/diagram"
	"github.com/awf-dev/awf/internal/infrastructure/report"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// reportName is the report's name inside a run's directory.
const reportName = "report.html"

func newReportCmd(g *globalFlags) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "report <run-id> [-o report.html]",
		Short: "Write a run's self-contained HTML report: timeline, tool calls, path, steps",
		Long: `Write one HTML file showing a run from its own records (.awf/runs/<id>/): the header with
its inputs (secrets masked), a timeline of steps with every tool call coloured by intent, the table
of calls (filterable when JavaScript is on), the workflow with the path taken, and each step's
output. No network: styles and script are inline. Without -o it goes to .awf/runs/<id>/report.html.
The workflow is drawn when Graphviz's dot is installed (Debian package graphviz).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			path, err := writeReport(cmd.Context(), root, args[0], out)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), path) // the path alone: `open "$(awf report ID)"`
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the report to this file (default .awf/runs/<id>/report.html)")
	return cmd
}

// writeReport reads run id's records under root, draws the report and writes it atomically to
// out (or the run's directory), returning the path written.
func writeReport(ctx context.Context, root, id, out string) (string, error) {
	page, runID, err := reportPage(ctx, root, id)
	if err != nil {
		return "", err
	}
	if out == "" {
		out = filepath.Join(runstore.Store{Root: root}.Dir(runID), reportName)
	}
	if err := writeFileAtomic(out, page); err != nil {
		return "", fault.Wrap(err, fault.SystemReportWrite, "cannot write %s", out)
	}
	return out, nil
}

// reportPage draws run id's report (awf report's page, awf serve's /report) and returns it
// with the run's full id.
func reportPage(ctx context.Context, root, id string) ([]byte, string, error) {
	in, err := report.Read(root, id)
	if err != nil {
		return nil, "", err
	}
	maskPluginEnv(root)
	in.Redactor = secrets()
	v := apprep.Build(in)
	var svg []byte
	if dot := report.DOT(v.Graph); dot != "" {
		svg, _ = diagram.Graphviz{}.Render(ctx, dot, "svg") // no dot installed: the path as a list
	}
	page, err := report.Render(v, svg, time.Now())
	if err != nil {
		return nil, "", fault.Wrap(err, fault.SystemReportWrite, "cannot draw the report of run %s", in.Record.ID)
	}
	return page, in.Record.ID, nil
}

// writeFileAtomic writes data through a private temp file beside path and a rename, so a reader
// never sees half a report.
func writeFileAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// reportAfterRun writes the report of a run that just ended (awf run --report) and says where;
// a report that cannot be written is a warning, never a change of the run's exit code. With
// --format json the path goes to stderr, so stdout stays one JSON document.
func reportAfterRun(cmd *cobra.Command, g *globalFlags, id string, jsonOut bool) {
	root, err := g.projectRoot()
	if err == nil {
		var path string
		if path, err = writeReport(context.WithoutCancel(cmd.Context()), root, id, ""); err == nil {
			w := cmd.OutOrStdout()
			if jsonOut {
				w = cmd.ErrOrStderr()
			}
			fmt.Fprintf(w, "Report: %s\n", path)
			return
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "awf: warning: no report for run %s: %s\n", id, secrets().String(err.Error()))
}
