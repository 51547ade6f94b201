package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// runView prints a run: steps as they run and a closing line (text), or one JSON summary.
type runView struct {
	format      string
	out, errOut io.Writer
	// runID is the run's id once it started ("" when it never did: invalid workflow or inputs).
	runID string
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
	if v.format != "text" {
		return run.NopObserver{}
	}
	fmt.Fprintf(v.out, "Running workflow '%s' (run %s)\n", workflow, runID)
	return &textObserver{out: v.out, red: secrets()}
}

func (v *runView) Finished(res *run.Result, err error, runDir string) {
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
