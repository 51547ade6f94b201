package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/runindex"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// runsUseCase is the status/history use case over the project's run store.
func runsUseCase(g *globalFlags) (usecase.Runs, error) {
	root, err := g.projectRoot()
	if err != nil {
		return usecase.Runs{}, fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	maskPluginEnv(root)
	return usecase.Runs{Store: runindex.New(root, activitylog.FileName)}, nil
}

func newStatusCmd(g *globalFlags) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "status <run-id>",
		Short: "Show a run's persisted state: status, current state, steps, duration",
		Long: `Show a run from .awf/runs/<id>/state.json. A run still marked running whose process
is gone is shown as crashed; awf resume <id> continues it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			uc, err := runsUseCase(g)
			if err != nil {
				return err
			}
			s, err := uc.Status(args[0])
			if err != nil {
				return err
			}
			secrets().AddMasks(s.Masked...) // what the run masked, with its variables set or not
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), summaryJSON(s))
			}
			printStatus(cmd.OutOrStdout(), s)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func newHistoryCmd(g *globalFlags) *cobra.Command {
	var (
		format string
		f      usecase.HistoryFilter
	)
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List past runs: workflow, status, start, duration, tool calls",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			uc, err := runsUseCase(g)
			if err != nil {
				return err
			}
			runs, err := uc.History(f)
			if err != nil {
				return err
			}
			var masked []string // added at once: each AddMasks rebuilds the redactor's table
			for _, s := range runs {
				masked = append(masked, s.Masked...)
			}
			secrets().AddMasks(masked...)
			if format == "json" {
				docs := make([]map[string]any, 0, len(runs))
				for _, s := range runs {
					docs = append(docs, summaryJSON(s))
				}
				return writeJSON(cmd.OutOrStdout(), docs)
			}
			printHistory(cmd.OutOrStdout(), runs)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&f.Workflow, "workflow", "", "only runs of this workflow")
	cmd.Flags().StringVar(&f.Status, "status", "", "only runs with this status: "+strings.Join(usecase.Statuses, ", ")+" (succeeded, failed and cancelled are read as success, failure and interrupted)")
	cmd.Flags().IntVar(&f.Limit, "limit", 0, "at most this many runs, newest first (0: all)")
	return cmd
}

func newListCmd(g *globalFlags) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the workflows under .awf/workflows with their descriptions and inputs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			list, err := usecase.ListWorkflows(yamlrepo.Repository{Root: root})
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), list)
			}
			printWorkflows(cmd.OutOrStdout(), list)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// summaryJSON is a run as --format json shows it, with its duration in milliseconds.
func summaryJSON(s usecase.RunSummary) map[string]any {
	doc := map[string]any{"id": s.ID, "workflow": s.Workflow, "status": s.Status, "current": s.Current,
		"started": s.Started.UTC().Format(time.RFC3339), "duration_ms": s.Duration.Milliseconds(), "tool_calls": s.ToolCalls}
	if s.Resumed > 0 {
		doc["resumed"] = s.Resumed
	}
	if s.Error != "" {
		doc["error"] = secrets().String(s.Error)
	}
	if s.Steps != nil {
		// Outputs are kept in clear in state.json for a resume; what is shown is masked like the
		// console, with the secrets of the current environment and the run's own mask set.
		steps := make([]runrecord.Step, len(s.Steps))
		for i, st := range s.Steps {
			steps[i] = maskedStep(st)
		}
		doc["steps"] = steps
	}
	if len(s.Active) > 0 {
		doc["active"] = s.Active
	}
	return doc
}

func printStatus(out io.Writer, s usecase.RunSummary) {
	fmt.Fprintf(out, "Run:       %s\nWorkflow:  %s\nStatus:    %s\n", s.ID, s.Workflow, s.Status)
	fmt.Fprintf(out, "State:     %s\nStarted:   %s\nDuration:  %s\nTool calls: %d\n", s.Current,
		s.Started.Local().Format(time.DateTime), s.Duration.Round(time.Millisecond), s.ToolCalls)
	if s.Resumed > 0 {
		fmt.Fprintf(out, "Resumed:   %d time(s)\n", s.Resumed)
	}
	if s.Error != "" {
		fmt.Fprintf(out, "Error:     %s\n", firstLine(s.Error))
	}
	fmt.Fprintf(out, "Steps (%d):\n", len(s.Steps))
	tw := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	for _, st := range s.Steps {
		name := st.Name
		if st.Within != "" {
			name = st.Within + " › " + st.Name
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\texit %d\t%dms\t→ %s\n", name, st.Type, st.Status, st.ExitCode, st.DurationMS, st.Next)
	}
	_ = tw.Flush()
	switch s.Status {
	case runrecord.Interrupted, runrecord.Crashed, runrecord.Failed, runrecord.Errored:
		fmt.Fprintf(out, "Resume with: awf resume %s\n", s.ID)
	}
}

func printHistory(out io.Writer, runs []usecase.RunSummary) {
	if len(runs) == 0 {
		fmt.Fprintln(out, "No runs.")
		return
	}
	tw := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tWORKFLOW\tSTATUS\tSTARTED\tDURATION\tTOOL CALLS")
	for _, s := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", s.ID, s.Workflow, s.Status, s.Started.Local().Format(time.DateTime),
			s.Duration.Round(time.Millisecond), s.ToolCalls)
	}
	_ = tw.Flush()
}

func printWorkflows(out io.Writer, list []usecase.WorkflowEntry) {
	if len(list) == 0 {
		fmt.Fprintln(out, "No workflows in .awf/workflows.")
		return
	}
	for _, w := range list {
		fmt.Fprintf(out, "%s", w.Name)
		if w.Description != "" {
			fmt.Fprintf(out, " — %s", w.Description)
		}
		fmt.Fprintln(out)
		if w.Problem != "" {
			fmt.Fprintf(out, "    (cannot be loaded: %s)\n", firstLine(w.Problem))
		}
		for _, in := range w.Inputs {
			fmt.Fprintf(out, "    --input %s=<%s>%s\n", in.Name, in.Type, inputNote(in))
		}
	}
}

func inputNote(in usecase.WorkflowInput) string {
	var parts []string
	if in.Required {
		parts = append(parts, "required")
	}
	if in.Default != nil {
		parts = append(parts, fmt.Sprintf("default %v", in.Default))
	}
	if in.Description != "" {
		parts = append(parts, in.Description)
	}
	if len(parts) == 0 {
		return ""
	}
	return "  (" + strings.Join(parts, "; ") + ")"
}

// maskedStep is a recorded step with every text in it masked: output, stderr, error, its JSON
// and response values and its conversation.
func maskedStep(st runrecord.Step) runrecord.Step {
	red := secrets()
	st.Output, st.Stderr, st.Error = red.String(st.Output), red.String(st.Stderr), red.String(st.Error)
	st.JSON, st.Response = red.Value(st.JSON), red.Map(st.Response)
	if c := st.Conversation; c != nil {
		cc := *c
		cc.Messages = make([]runrecord.Message, len(c.Messages))
		for i, m := range c.Messages {
			cc.Messages[i] = runrecord.Message{Role: m.Role, Content: red.String(m.Content)}
		}
		st.Conversation = &cc
	}
	return st
}
