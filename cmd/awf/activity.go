package main

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	domact "github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
)

func newActivityCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "activity",
		Short: "Show what agents did: one record per tool call",
	}
	cmd.AddCommand(newActivityListCmd(g), newActivityShowCmd(g))
	return cmd
}

// activityListFlags are the filters of `awf activity list`.
type activityListFlags struct {
	file, runID, toolName, status, intentType, format, kind string
	// output is -o/--output, the deprecated spelling of --format (diagram and report take
	// -o for a file), still accepted with a warning.
	output string
}

// filter checks the flags and turns them into a record filter.
func (f activityListFlags) filter() (domact.Filter, error) {
	if err := checkFormat(f.format, "table", "json"); err != nil {
		return domact.Filter{}, err
	}
	if f.status != "" && f.status != string(domact.OutcomeSuccess) && f.status != string(domact.OutcomeError) && f.status != string(domact.OutcomeRefused) {
		return domact.Filter{}, fault.New(fault.UserCLIInvalidStatus, "unknown status %q", f.status).WithHint("use success, error or refused")
	}
	if f.intentType != "" && !tool.Variant(f.intentType).Valid() {
		return domact.Filter{}, fault.New(fault.UserCLIInvalidIntentType, "unknown intent type %q", f.intentType).WithHint("use read, write or destructive")
	}
	if err := checkKind(f.kind); err != nil {
		return domact.Filter{}, err
	}
	return domact.Filter{RunID: f.runID, Tool: f.toolName, Outcome: domact.Outcome(f.status), IntentType: tool.Variant(f.intentType), Kind: f.kind}, nil
}

func newActivityListCmd(g *globalFlags) *cobra.Command {
	var fl activityListFlags
	list := &cobra.Command{
		Use:   "list",
		Short: "List tool-call records (all runs unless --run or --file)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if fl.output != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "awf: -o/--output is deprecated here: use --format (-o names an output file in diagram and report)")
				if !cmd.Flags().Changed("format") {
					fl.format = fl.output
				}
			}
			f, err := fl.filter()
			if err != nil {
				return err
			}
			files, err := activityFiles(g, fl.file, fl.runID)
			if err != nil {
				return err
			}
			all := []domact.Record{}
			for _, p := range files {
				recs, err := activitylog.FileStore{Path: p}.List(cmd.Context(), f)
				if err != nil {
					return err
				}
				all = append(all, recs...)
			}
			sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
			if fl.format == "json" {
				return writeJSON(cmd.OutOrStdout(), activitylog.LinesOf(all))
			}
			printActivityTable(cmd.OutOrStdout(), all)
			return nil
		},
	}
	list.Flags().StringVar(&fl.file, "file", "", "activity file to read (default: every run under .awf/runs)")
	list.Flags().StringVar(&fl.runID, "run", "", "only this run")
	list.Flags().StringVar(&fl.toolName, "tool", "", "only this tool")
	list.Flags().StringVar(&fl.status, "status", "", "only this outcome: success, error or refused")
	list.Flags().StringVar(&fl.kind, "kind", "", "only records of this kind: call (tool calls) or network (connections through a step's egress proxy)")
	list.Flags().StringVar(&fl.intentType, "intent-type", "", "only calls whose effective variant (the stronger of the declared one and the tool's own) is read, write or destructive")
	list.Flags().StringVar(&fl.format, "format", "table", "output format: table or json")
	list.Flags().StringVarP(&fl.output, "output", "o", "", "table or json")
	_ = list.Flags().MarkHidden("output") // deprecated: warned about when used
	return list
}

func newActivityShowCmd(g *globalFlags) *cobra.Command {
	var showFile, showRun string
	show := &cobra.Command{
		Use:   "show <id>",
		Short: "Show one record in full (an id or a unique prefix of at least 6 characters)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := activityFiles(g, showFile, showRun)
			if err != nil {
				return err
			}
			for _, p := range files {
				rec, err := activitylog.FileStore{Path: p}.Get(cmd.Context(), args[0])
				if err == nil {
					return writeJSON(cmd.OutOrStdout(), activitylog.LineOf(rec))
				}
				if fault.CodeOf(err) != fault.UserActivityNotFound {
					return err
				}
			}
			return fault.New(fault.UserActivityNotFound, "no activity record with id %q", args[0]).WithHint("list ids with `awf activity list`")
		},
	}
	show.Flags().StringVar(&showFile, "file", "", "activity file to read")
	show.Flags().StringVar(&showRun, "run", "", "only this run")
	return show
}

// activityFiles picks the files to read: --file, the file of --run, or every run's file.
func activityFiles(g *globalFlags, file, runID string) ([]string, error) {
	if file != "" {
		return []string{file}, nil
	}
	root, err := g.projectRoot()
	if err != nil {
		return nil, fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	runs, err := activitylog.FindRunFiles(filepath.Join(root, ".awf", "runs"))
	if err != nil {
		return nil, err
	}
	if runID != "" {
		p, ok := runs[runID]
		if !ok {
			return nil, fault.New(fault.UserActivityNotFound, "run %q has no activity file", runID).WithHint("runs live in %s", filepath.Join(root, ".awf", "runs"))
		}
		return []string{p}, nil
	}
	ids := make([]string, 0, len(runs))
	for id := range runs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, runs[id])
	}
	return out, nil
}
