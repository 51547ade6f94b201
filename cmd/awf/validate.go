package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/operations/httpop"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/promptfile"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

func newValidateCmd(g *globalFlags) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "validate <name|path>",
		Short: "Check a workflow and report every problem with file:line:col",
		Long: `Check a workflow without running it. A name is looked up as .awf/workflows/<name>.yaml under the
project root; anything else is taken as a path. Exit 0 when valid, 1 when invalid, 4 when awf failed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			svc, done, err := validationService(g)
			if err != nil {
				return err
			}
			defer done()
			rep, err := usecase.Validate{Validator: svc}.Check(cmd.Context(), args[0])
			if err != nil {
				if format == "json" {
					printValidationJSON(cmd.OutOrStdout(), rep)
					return &exitError{code: fault.ExitCode(err)}
				}
				return err
			}
			if format == "json" {
				printValidationJSON(cmd.OutOrStdout(), rep)
			} else {
				printValidationText(cmd.OutOrStdout(), cmd.ErrOrStderr(), rep)
			}
			if !rep.Valid() {
				return &exitError{code: fault.ExitUser}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// validationService returns the validator with every check: provider options and the plugins the
// workflow's steps expose (started to ask them for their operations). Call the closer to stop the
// plugins it started.
func validationService(g *globalFlags) (validate.Service, func(), error) {
	root, err := g.projectRoot()
	if err != nil {
		return validate.Service{}, func() {}, fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	host := projectPluginHost(root, zap.NewNop())
	return validationServiceWith(root, host), func() { _ = host.Close() }, nil
}

// validationServiceWith validates against a plugin host the caller owns, so `awf run` starts each
// plugin once for validation and for its agent steps' in-process routers.
func validationServiceWith(root string, host *plugins.Host) validate.Service {
	repo := yamlrepo.Repository{Root: root}
	checks := append(providerChecks(), validate.PluginCheck(host), validate.ExpressionCheck(expr.Compiler{}),
		validate.OperationCheck(httpop.Runner{}.Specs(), host),
		validate.ScriptCheck(promptfile.Files{Noun: "script file", Code: fault.UserWorkflowScriptFile}, root), validate.EgressCheck())
	checks = append(checks, validate.CallCheck(repo, checks...))
	return validate.Service{Repo: repo, Checks: checks}
}

func printValidationText(out, errOut io.Writer, rep validate.Report) {
	for _, d := range rep.Diagnostics {
		fmt.Fprintln(errOut, visibleLines(d.String())) // a plugin's text may be quoted in it
	}
	if rep.Valid() {
		fmt.Fprintf(out, "Workflow '%s' is valid\n", rep.Name)
		return
	}
	fmt.Fprintf(errOut, "Workflow '%s' is invalid: %d error(s), %d warning(s)\n", rep.Name, len(rep.Diagnostics.Errors()), len(rep.Diagnostics.Warnings()))
}

type jsonDiagnostic struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Hint    string `json:"hint"`
}

func toJSONDiagnostics(ds fault.Diagnostics) []jsonDiagnostic {
	out := make([]jsonDiagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, jsonDiagnostic{d.Code, d.Message, d.File, d.Line, d.Column, d.Hint})
	}
	return out
}

func printValidationJSON(out io.Writer, rep validate.Report) {
	doc := struct {
		Valid    bool             `json:"valid"`
		Workflow string           `json:"workflow"`
		File     string           `json:"file,omitempty"`
		Errors   []jsonDiagnostic `json:"errors"`
		Warnings []jsonDiagnostic `json:"warnings"`
	}{rep.Valid(), rep.Name, rep.File, toJSONDiagnostics(rep.Diagnostics.Errors()), toJSONDiagnostics(rep.Diagnostics.Warnings())}
	_ = writeJSON(out, doc)
}

func checkFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return fault.New(fault.UserCLIInvalidFormat, "unknown format %q", got).WithHint("use one of %v", allowed)
}
