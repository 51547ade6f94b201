package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/application/cireport"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/application/validate"
	domact "github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

func newCICmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ci",
		Short: "What a CI job shows of a run: job summary, outputs, annotations, SARIF (used by the GitHub Action)",
		Long: `Commands for CI systems (docs/guide/ci.md). On GitHub Actions they write the step outputs
($GITHUB_OUTPUT), the job summary ($GITHUB_STEP_SUMMARY) and annotations (::error lines on stdout);
elsewhere they print the same to stdout.`,
	}
	cmd.AddCommand(newCISummaryCmd(g), newCIValidateCmd(g))
	return cmd
}

type ciSummaryFlags struct {
	sarif       string
	annotations bool
	format      string
}

func newCISummaryCmd(g *globalFlags) *cobra.Command {
	f := ciSummaryFlags{}
	cmd := &cobra.Command{
		Use:   "summary [<run-id>]",
		Short: "Summarize a run (the newest when no id is given) for CI: outputs, job summary, annotations",
		Long: `Summarize a run: steps with status and duration, tool calls by intent, refusals and sandbox
denials. With GITHUB_OUTPUT set it writes the outputs run-id, status, summary-json and report-path;
with GITHUB_STEP_SUMMARY set it appends the summary there (else prints it, or its JSON with
--format json). Refusals and sandbox denials are printed as ::error / ::warning annotations at
their step's line in the workflow file (--annotations=false leaves them out). Exit 0 whatever the
run's status: the run's own exit code is awf run's.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(f.format, "markdown", "json"); err != nil {
				return err
			}
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			s, err := loadCISummary(cmd.Context(), g, id)
			if err != nil {
				return err
			}
			return emitCISummary(cmd, s, f)
		},
	}
	cmd.Flags().StringVar(&f.sarif, "sarif", "", "also write the run's refusals and sandbox denials as SARIF 2.1.0 to this file")
	cmd.Flags().BoolVar(&f.annotations, "annotations", true, "print refusals and sandbox denials as ::error / ::warning annotations")
	cmd.Flags().StringVar(&f.format, "format", "markdown", "what to print when GITHUB_STEP_SUMMARY is not set: markdown or json")
	return cmd
}

// loadCISummary reads run id (or the newest run) and its activity back and summarizes it.
func loadCISummary(ctx context.Context, g *globalFlags, id string) (cireport.Summary, error) {
	root, err := g.projectRoot()
	if err != nil {
		return cireport.Summary{}, fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	st := runstore.Store{Root: root, ActivityFile: activitylog.FileName}
	if id == "" {
		recs, err := st.List()
		if err != nil || len(recs) == 0 {
			return cireport.Summary{}, fault.New(fault.UserRunNotFound, "there is no run in %s to summarize", st.Dir("")).WithHint("run a workflow first: awf run <workflow>")
		}
		id = recs[0].ID
	}
	rec, err := st.Load(id)
	if err != nil {
		return cireport.Summary{}, err
	}
	calls, _ := activitylog.FileStore{Path: filepath.Join(st.Dir(id), activitylog.FileName)}.List(ctx, domact.Filter{RunID: id})
	in := cireport.Input{Run: rec, Calls: calls, File: ciPath(root, rec.File)}
	if rec.File != "" {
		// Only the states' lines are needed: the file is parsed, no plugin is started.
		svc := validate.Service{Repo: yamlrepo.Repository{Root: root}}
		if rep, err := svc.Validate(ctx, rec.File); err == nil {
			in.Workflow = rep.Workflow
		}
	}
	if report := filepath.Join(st.Dir(id), "report.html"); fileExists(report) {
		in.ReportPath = ciPath(root, report)
	}
	return cireport.Summarize(in, rec.Effective(st.Alive)), nil
}

// ciPath is file as the CI system names files: relative to GITHUB_WORKSPACE (the checkout) when
// it is under it, else relative to the project root, else as it is.
func ciPath(root, file string) string {
	if file == "" {
		return ""
	}
	for _, base := range []string{os.Getenv("GITHUB_WORKSPACE"), root} {
		if base == "" {
			continue
		}
		if rel, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// emitCISummary writes the summary where the CI system reads it.
func emitCISummary(cmd *cobra.Command, s cireport.Summary, f ciSummaryFlags) error {
	red := secrets()
	doc, _ := json.Marshal(s)
	if out := os.Getenv("GITHUB_OUTPUT"); out != "" {
		if err := appendCIOutputs(out, s, red.String(string(doc))); err != nil {
			return err
		}
	}
	if file := os.Getenv("GITHUB_STEP_SUMMARY"); file != "" {
		if err := appendFile(file, red.String(s.Markdown())); err != nil {
			return fault.Wrap(err, fault.SystemCIWrite, "cannot append the job summary to %s", file)
		}
	} else if f.format == "json" {
		_ = writeJSON(cmd.OutOrStdout(), s)
	} else {
		fmt.Fprint(cmd.OutOrStdout(), s.Markdown())
	}
	if f.annotations {
		for _, a := range s.Annotations() {
			fmt.Fprintln(cmd.OutOrStdout(), a)
		}
	}
	if f.sarif != "" {
		return writeSARIF(f.sarif, s)
	}
	return nil
}

// writeSARIF writes s's findings as SARIF to file, atomically.
func writeSARIF(file string, s cireport.Summary) error {
	b, err := s.SARIF(currentBuild().Version)
	if err != nil {
		return err
	}
	if err := privatefs.WriteFile(file, []byte(secrets().String(string(b))+"\n")); err != nil {
		return fault.Wrap(err, fault.SystemCIWrite, "cannot write the SARIF file %s", file).WithHint("check that its directory exists and is writable")
	}
	return nil
}

// appendCIOutputs appends the step outputs in the runner's name<<delimiter form, the delimiter
// random so that no value can end it early and set another output.
func appendCIOutputs(file string, s cireport.Summary, doc string) error {
	var b strings.Builder
	for _, kv := range [][2]string{{"run-id", s.RunID}, {"status", s.Status}, {"summary-json", doc}, {"report-path", s.ReportPath}} {
		var r [12]byte
		_, _ = rand.Read(r[:])
		delim := "AWF_EOF_" + hex.EncodeToString(r[:])
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", kv[0], delim, kv[1], delim)
	}
	if err := appendFile(file, b.String()); err != nil {
		return fault.Wrap(err, fault.SystemCIWrite, "cannot append the step outputs to %s", file)
	}
	return nil
}

func appendFile(file, text string) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

func newCIValidateCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "validate <name|path>",
		Short: "Validate a workflow and print its errors and warnings as ::error / ::warning annotations",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, done, err := validationService(g)
			if err != nil {
				return err
			}
			defer done()
			rep, err := usecase.Validate{Validator: svc}.Check(cmd.Context(), args[0])
			if err != nil && len(rep.Diagnostics) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), cireport.Command("error", fault.Position{File: args[0]}, fault.CodeOf(err), err.Error()))
				return &exitError{code: fault.ExitCode(err)}
			}
			root, _ := g.projectRoot()
			for _, a := range cireport.ValidateAnnotations(relDiagnostics(root, rep.Diagnostics), ciPath(root, rep.File)) {
				fmt.Fprintln(cmd.OutOrStdout(), a)
			}
			if !rep.Valid() {
				return &exitError{code: fault.ExitUser}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Workflow '%s' is valid\n", rep.Name)
			return nil
		},
	}
}

// relDiagnostics names each diagnostic's file as the CI system does.
func relDiagnostics(root string, ds fault.Diagnostics) fault.Diagnostics {
	out := make(fault.Diagnostics, len(ds))
	for i, d := range ds {
		d.File = ciPath(root, d.File)
		out[i] = d
	}
	return out
}

// sarifAfterRun is `awf run --sarif F`: the run's findings written when it ends, whatever its
// status; a failure to write is a warning, the run's exit code stays the run's.
func sarifAfterRun(cmd *cobra.Command, g *globalFlags, id, file string) {
	s, err := loadCISummary(context.WithoutCancel(cmd.Context()), g, id)
	if err == nil {
		err = writeSARIF(file, s)
	}
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "awf: warning: no SARIF for run %s: %s\n", id, secrets().String(err.Error()))
	}
}
