package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/fault"
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
	return fault.New(fault.ExecutionAgentCLIFailed, "%s exited with status %d: %s", provider, r.ExitCode, detail).
		WithHint("run the same command by hand to see the full output; check the CLI's credentials and options")
}

// BadOutput is the error for output that could not be parsed as the CLI's JSON report.
func BadOutput(provider string, r Result, err error) *fault.Error {
	what := fmt.Sprintf("%d bytes", len(r.Stdout))
	if r.StdoutTruncated {
		what = "more than the output limit, cut"
	}
	return fault.Wrap(err, fault.ExecutionAgentBadOutput, "%s printed output awf cannot read (%s): %v; stdout began: %s",
		provider, what, err, Head(string(r.Stdout), 300)).
		WithHint("check that the CLI version is the one awf supports and that options.extra_args does not change the output format")
}

// AgentError is the error for a run the CLI itself reported as failed.
func AgentError(provider, format string, args ...any) *fault.Error {
	return fault.New(fault.ExecutionAgentError, "%s reported an error: %s", provider, fmt.Sprintf(format, args...))
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
