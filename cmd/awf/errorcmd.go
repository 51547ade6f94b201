package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/awf-dev/awf/docs"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/spf13/cobra"
)

// codeEntry is one row of the error-code catalog as `awf error` shows it.
type codeEntry struct {
	Code     string `json:"code"`
	Category string `json:"category"`
	ExitCode int    `json:"exit_code"`
	Meaning  string `json:"meaning"`
}

// codeRow matches a row of docs/reference/error-codes.md: | `CODE` | meaning |.
var codeRow = regexp.MustCompile("(?m)^\\| `([A-Z]+\\.[A-Z_]+\\.[A-Z_0-9]+)` \\| (.*) \\|$")

// errorCatalog parses the embedded error-code page, sorted by code.
func errorCatalog() []codeEntry {
	var out []codeEntry
	for _, m := range codeRow.FindAllStringSubmatch(docs.ErrorCodes, -1) {
		out = append(out, codeEntry{Code: m[1], Category: string(fault.CategoryOf(m[1])),
			ExitCode: fault.ExitCode(fault.New(m[1], "")), Meaning: strings.TrimSpace(m[2])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// lookupCodes returns the entries whose code is query, or starts with it (a category or a
// CATEGORY.SUB prefix); nil when none does.
func lookupCodes(query string) []codeEntry {
	query = strings.ToUpper(strings.TrimSpace(query))
	var out []codeEntry
	for _, e := range errorCatalog() {
		if e.Code == query {
			return []codeEntry{e}
		}
		if query == "" || strings.HasPrefix(e.Code, query+".") || strings.HasPrefix(e.Code, query) && strings.HasSuffix(query, ".") {
			out = append(out, e)
		}
	}
	return out
}

func newErrorCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "error [CODE|PREFIX]",
		Short: "Explain an error code: its meaning and the exit code it gives",
		Long: `Look up the codes awf prints in brackets ([USER.INPUT.MISSING]). With no argument, lists every
code; with a category or prefix (USER, USER.INPUT), the codes under it.`,
		Example: "  awf error USER.INPUT.MISSING\n  awf error EXECUTION --format json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			query := ""
			if len(args) == 1 {
				query = args[0]
			}
			found := lookupCodes(query)
			if len(found) == 0 {
				return unknownCode(query)
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), found)
			}
			printCodes(cmd.OutOrStdout(), found)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// unknownCode is the error for a query no code matches, with the nearest code if one is close.
func unknownCode(query string) error {
	var codes []string
	for _, e := range errorCatalog() {
		codes = append(codes, e.Code)
	}
	err := fault.New(fault.UserCLIInvalidArgs, "no error code %q", strings.ToUpper(query))
	if near := suggest.Closest(strings.ToUpper(query), codes); near != "" {
		return err.WithHint("did you mean %s? `awf error` lists every code", near)
	}
	return err.WithHint("`awf error` lists every code; a category (USER, EXECUTION) lists its codes")
}

// printCodes writes entries as text: one code a paragraph, its exit code and meaning.
func printCodes(w io.Writer, entries []codeEntry) {
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (exit %d)\n  %s\n", e.Code, e.ExitCode, e.Meaning)
	}
	if len(entries) > 1 {
		fmt.Fprintf(w, "\n%d codes; docs/reference/error-codes.md explains the categories\n", len(entries))
	}
}
