package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Codes of agent-CLI failures. The EXECUTION ones fail the step (exit 3, on_failure followed);
// the USER ones are problems in the workflow file, reported before anything runs.
const (
	// CodeNotFound: the CLI's binary is not installed where awf looked.
	CodeNotFound = "EXECUTION.AGENT.CLI_NOT_FOUND"
	// CodeFailed: the CLI exited non-zero without saying why in its JSON output.
	CodeFailed = "EXECUTION.AGENT.CLI_FAILED"
	// CodeBadOutput: the CLI exited 0 but its output is not the JSON awf asked for.
	CodeBadOutput = "EXECUTION.AGENT.BAD_OUTPUT"
	// CodeAgentError: the CLI reported the run failed (an API error, a failed turn).
	CodeAgentError = "EXECUTION.AGENT.ERROR"
	// CodePermissionDenied: the CLI refused tool calls the model made (Claude's
	// permission_denials): the agent ran without tools it needed, which must not pass silently.
	CodePermissionDenied = "EXECUTION.AGENT.PERMISSION_DENIED"
	// CodeStopped: the step's context ended (timeout or Ctrl+C) and the CLI was stopped.
	CodeStopped = "EXECUTION.AGENT.STOPPED"
	// CodeSetup: awf could not prepare the run (private files, working directory).
	CodeSetup = "EXECUTION.AGENT.SETUP"

	// CodeUnknownOption: an option the provider does not know.
	CodeUnknownOption = "USER.AGENT.UNKNOWN_OPTION"
	// CodeInvalidOption: a known option with a value of the wrong type or out of range.
	CodeInvalidOption = "USER.AGENT.INVALID_OPTION"
	// CodeUnsupportedOption: a common option this CLI has no way to honour.
	CodeUnsupportedOption = "USER.AGENT.UNSUPPORTED_OPTION"
	// CodeUnsupportedProvider is the warning printed where a CLI cannot be fully isolated
	// behind the proxy (DESIGN §4).
	CodeUnsupportedProvider = "USER.MCP_PROXY.UNSUPPORTED_PROVIDER"
)

// tailBytes is how much of stderr an error message quotes: enough for a stack trace's head,
// little enough to read in a terminal.
const tailBytes = 2000

// Failed is the error for a CLI that exited non-zero without a usable JSON report. It quotes
// the end of stderr (or of stdout when stderr is empty), where CLIs print their reason.
func Failed(provider string, r Result) *fault.Error {
	detail := Tail(r.Stderr, tailBytes)
	if detail == "" {
		detail = Tail(string(r.Stdout), tailBytes)
	}
	if detail == "" {
		detail = "(no output)"
	}
	return fault.New(CodeFailed, "%s exited with status %d: %s", provider, r.ExitCode, detail).
		WithHint("run the same command by hand to see the full output; check the CLI's credentials and options")
}

// BadOutput is the error for output that could not be parsed as the CLI's JSON report.
func BadOutput(provider string, r Result, err error) *fault.Error {
	what := fmt.Sprintf("%d bytes", len(r.Stdout))
	if r.StdoutTruncated {
		what = "more than the output limit, cut"
	}
	return fault.Wrap(err, CodeBadOutput, "%s printed output awf cannot read (%s): %v; stdout began: %s",
		provider, what, err, Head(string(r.Stdout), 300)).
		WithHint("check that the CLI version is the one awf supports and that options.extra_args does not change the output format")
}

// AgentError is the error for a run the CLI itself reported as failed.
func AgentError(provider, format string, args ...any) *fault.Error {
	return fault.New(CodeAgentError, "%s reported an error: %s", provider, fmt.Sprintf(format, args...))
}

// Tail returns the last max bytes of s, trimmed, cut at a line start when one is near, and
// marked when something was left out.
func Tail(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	start := len(s) - max
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	cut := s[start:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < max/4 {
		cut = cut[i+1:]
	}
	return "…" + cut
}

// Head returns the first max bytes of s, trimmed and marked when cut.
func Head(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}
