package cireport

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// Markdown is the job summary ($GITHUB_STEP_SUMMARY). Every value from the run (step names,
// messages, tool names) is escaped: a message cannot add HTML, a table cell or a heading.
func (s Summary) Markdown() string {
	var b strings.Builder
	icon := map[string]string{runrecord.Succeeded: "✅", runrecord.Failed: "❌", runrecord.Interrupted: "⏹", runrecord.Crashed: "💥"}[s.Status]
	fmt.Fprintf(&b, "## awf: %s %s %s\n\n", cell(s.Workflow), icon, cell(s.Status))
	fmt.Fprintf(&b, "Run `%s`, %s", strings.ReplaceAll(s.RunID, "`", ""), Duration(s.DurationMS))
	if s.ReportPath != "" {
		fmt.Fprintf(&b, ", report: `%s`", strings.ReplaceAll(s.ReportPath, "`", ""))
	}
	b.WriteString("\n\n")
	if s.Error != "" {
		fmt.Fprintf(&b, "> %s\n\n", cell(s.Error))
	}
	b.WriteString("### Steps\n\n| step | status | duration |\n| --- | --- | --- |\n")
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(st.Name), cell(st.Status), Duration(st.DurationMS))
	}
	fmt.Fprintf(&b, "\n### Tool calls: %d\n\n", s.ToolCalls)
	if s.ToolCalls > 0 {
		b.WriteString("| intent | calls |\n| --- | --- |\n")
		for _, k := range intents(s.ByIntent) {
			fmt.Fprintf(&b, "| %s | %d |\n", cell(k), s.ByIntent[k])
		}
	}
	s.findings(&b, KindRefusal, "Refusals")
	s.findings(&b, KindSandbox, "Sandbox denials")
	return b.String()
}

func (s Summary) findings(b *strings.Builder, kind, title string) {
	var rows []Finding
	for _, f := range s.Findings {
		if f.Kind == kind {
			rows = append(rows, f)
		}
	}
	fmt.Fprintf(b, "\n### %s: %d\n\n", title, len(rows))
	if len(rows) == 0 {
		return
	}
	b.WriteString("| step | tool | code | message |\n| --- | --- | --- | --- |\n")
	for _, f := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cell(f.Step), cell(f.Tool), cell(f.Code), cell(f.Message))
	}
}

// intents are the keys of m, known intents first in order of power.
func intents(m map[string]int) []string {
	rank := map[string]int{}
	for i, k := range intentOrder {
		rank[k] = i + 1
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		if ri == 0 {
			ri = len(intentOrder) + 1
		}
		if rj == 0 {
			rj = len(intentOrder) + 1
		}
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// cell makes text safe in one Markdown table cell: HTML escaped, one line, no pipe, no
// Markdown emphasis or links, at most 300 characters.
func cell(s string) string {
	s = strings.Join(strings.Fields(controlFree(s)), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	s = html.EscapeString(s)
	return strings.NewReplacer("|", "\\|", "`", "\\`", "*", "\\*", "[", "\\[", "]", "\\]").Replace(s)
}

// controlFree replaces control characters (escape sequences included) with spaces.
func controlFree(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}

// Annotations are the findings as GitHub workflow commands, one per line:
// ::error file=F,line=N,col=C,title=T::message. A message cannot start another command: the
// command's data and properties are escaped as the runner expects (% CR LF, and : , in properties).
func (s Summary) Annotations() []string {
	out := make([]string, 0, len(s.Findings))
	for _, f := range s.Findings {
		level := "error"
		if f.Kind == KindSandbox {
			level = "warning"
		}
		title := "awf refused " + f.Tool
		if f.Kind == KindSandbox {
			title = "awf sandbox denied " + f.Tool
		}
		msg := fmt.Sprintf("step %s: %s (%s)", f.Step, f.Message, f.Code)
		out = append(out, Command(level, f.Pos, title, msg))
	}
	return out
}

// ValidateAnnotations are a workflow's diagnostics as workflow commands: errors as ::error,
// warnings as ::warning, at their file and line.
func ValidateAnnotations(ds fault.Diagnostics, file string) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		level := "error"
		if d.Severity != fault.SeverityError {
			level = "warning"
		}
		pos := d.Position
		if pos.File == "" {
			pos.File = file
		}
		msg := d.Message
		if d.Hint != "" {
			msg += " (hint: " + d.Hint + ")"
		}
		out = append(out, Command(level, pos, d.Code, msg))
	}
	return out
}

// Command formats one workflow command.
func Command(level string, pos fault.Position, title, msg string) string {
	var props []string
	if pos.File != "" {
		props = append(props, "file="+escapeProperty(pos.File))
	}
	if pos.Line > 0 {
		props = append(props, fmt.Sprintf("line=%d", pos.Line))
	}
	if pos.Column > 0 {
		props = append(props, fmt.Sprintf("col=%d", pos.Column))
	}
	if title != "" {
		props = append(props, "title="+escapeProperty(title))
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeData(msg)
}

func escapeData(s string) string {
	return controlFree(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s))
}

func escapeProperty(s string) string {
	return controlFree(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s))
}
