package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/report"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// runView prints a run: steps as they run and a closing line (text), one JSON summary (json),
// or one JSON object per event as it happens (jsonl).
type runView struct {
	format      string
	out, errOut io.Writer
	// mode is -o: how text shows step output (outputStreaming, outputBuffered, outputSilent).
	mode string
	// runDir is the directory of run id, whose activity file the console follows; nil follows
	// nothing.
	runDir func(id string) string
	// runID is the run's id once it started ("" when it never did: invalid workflow or inputs).
	runID  string
	follow *follower
}

func (v *runView) Warnings(ds fault.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(v.errOut, d.String())
	}
}

func (v *runView) Invalid(rep validate.Report) { printValidationText(io.Discard, v.errOut, rep) }

func (v *runView) InputProblems(ds fault.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(v.errOut, d.String())
	}
}

func (v *runView) Started(workflow, runID string) run.Observer {
	v.runID = runID
	switch v.format {
	case "jsonl":
		o := &jsonlObserver{out: v.out, red: secrets()}
		o.drain = v.followRun(runID, o.call, o.turn, func(time.Time) {})
		return o
	case "text":
		fmt.Fprintf(v.out, "Running workflow '%s' (run %s)\n", workflow, runID)
		o := &textObserver{out: v.out, red: secrets(), mode: v.mode}
		o.drain = v.followRun(runID, o.call, o.turn, o.heartbeat)
		return o
	}
	return run.NopObserver{}
}

// followRun starts following the run's activity file and log, when the view knows where they
// are, and returns the follower's drain (nil without one).
func (v *runView) followRun(runID string, onCall func(activity.Record), onTurn func(modelTurn), onTick func(time.Time)) func() {
	if v.runDir == nil {
		return nil
	}
	dir := v.runDir(runID)
	// The log first: a model turn is logged before the calls it asks for are made.
	v.follow = startFollower([]*tail{
		newTail(filepath.Join(dir, report.LogFile), turnLines(onTurn)),
		newTail(filepath.Join(dir, activitylog.FileName), callLines(onCall)),
	}, onTick)
	return v.follow.drain
}

func (v *runView) Finished(res *run.Result, err error, runDir string) {
	if v.follow != nil {
		v.follow.stop()
		v.follow = nil
	}
	if v.format == "jsonl" {
		return // run_finished was the last line
	}
	if v.format == "json" {
		printRunJSON(v.out, res, err, runDir)
		return
	}
	printRunText(v.out, res, err)
	if err != nil {
		fmt.Fprintln(v.errOut, "awf: "+err.Error())
	}
	if res != nil && res.Status == run.RunInterrupted {
		fmt.Fprintf(v.errOut, "awf: run %s interrupted; continue it with: awf resume %s\n", res.RunID, res.RunID)
	}
}

type jsonStep struct {
	run.StepResult
	DurationMS int64 `json:"duration_ms"`
}

func printRunJSON(out io.Writer, res *run.Result, runErr error, runDir string) {
	steps := make([]jsonStep, 0, len(res.Steps))
	for _, s := range res.Steps {
		steps = append(steps, jsonStep{s, s.Duration.Milliseconds()})
	}
	doc := map[string]any{
		"run_id":      res.RunID,
		"workflow":    res.Workflow,
		"status":      res.Status,
		"terminal":    res.Terminal,
		"exit_code":   fault.ExitCode(runErr),
		"duration_ms": res.Duration.Milliseconds(),
		"steps":       steps,
		"run_dir":     runDir,
	}
	if runErr != nil {
		doc["error"] = map[string]string{"code": fault.CodeOf(runErr), "message": runErr.Error()}
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
	_ = os.Stdout.Sync()
}

// newRunView checks `awf run`'s --format and -o and builds the view of the run.
func newRunView(cmd *cobra.Command, g *globalFlags, format, output string) (*runView, error) {
	if err := checkFormat(format, "text", "json", "jsonl"); err != nil {
		return nil, err
	}
	if !slices.Contains([]string{outputStreaming, outputBuffered, outputSilent}, output) {
		return nil, fault.New(fault.UserCLIInvalidFormat, "-o %q is not an output mode", output).
			WithHint("use -o streaming (each line as it comes), -o buffered (a step's output when it ends) or -o silent")
	}
	v := &runView{format: format, mode: output, out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr()}
	if root, err := g.projectRoot(); err == nil {
		v.runDir = runstore.Store{Root: root}.Dir
	}
	return v, nil
}
