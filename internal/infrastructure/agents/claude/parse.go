package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// report is the part of `--output-format json` awf reads.
type report struct {
	Type          string   `json:"type"`
	Subtype       string   `json:"subtype"`
	IsError       bool     `json:"is_error"`
	Result        *string  `json:"result"`
	SessionID     string   `json:"session_id"`
	TotalCostUSD  float64  `json:"total_cost_usd"`
	TerminalState string   `json:"terminal_reason"`
	Errors        []string `json:"errors"`
	Usage         struct {
		InputTokens         int `json:"input_tokens"`
		CacheCreationTokens int `json:"cache_creation_input_tokens"`
		CacheReadTokens     int `json:"cache_read_input_tokens"`
		OutputTokens        int `json:"output_tokens"`
	} `json:"usage"`
	PermissionDenials []struct {
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials"`
}

// parse reads the report. Input tokens count cache reads and writes too: they are input the
// model processed, and the figure is meant for cost and context accounting.
func parse(r cli.Result) (ports.AgentResult, error) {
	var rep report
	if err := json.Unmarshal(bytes.TrimSpace(r.Stdout), &rep); err != nil {
		return ports.AgentResult{}, fmt.Errorf("not a JSON report: %w", err)
	}
	if rep.Type != "result" || (rep.Result == nil && !rep.IsError) {
		return ports.AgentResult{}, errors.New(`no "result" in the report`)
	}
	out := ports.AgentResult{
		InputTokens:  rep.Usage.InputTokens + rep.Usage.CacheCreationTokens + rep.Usage.CacheReadTokens,
		OutputTokens: rep.Usage.OutputTokens,
		CostUSD:      rep.TotalCostUSD,
		SessionID:    rep.SessionID,
	}
	if rep.Result != nil {
		out.Output = *rep.Result
	}
	if rep.IsError {
		why := strings.TrimSpace(out.Output)
		if why == "" {
			why = strings.Join(rep.Errors, "; ")
		}
		if why == "" {
			why = "no message"
		}
		return out, cli.AgentError(Name, "%s (%s)", why, detail(rep)).
			WithHint("set ANTHROPIC_API_KEY (or log in once with `claude`) and check options.model and ANTHROPIC_BASE_URL; session %s", rep.SessionID)
	}
	if len(rep.PermissionDenials) > 0 {
		return out, denied(rep)
	}
	return out, nil
}

func detail(rep report) string {
	var parts []string
	for _, s := range []string{rep.Subtype, rep.TerminalState} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "no detail"
	}
	return strings.Join(parts, ", ")
}

// denied is the step error for calls Claude refused: docs/design.md#pitfalls measured Claude exiting 0 with
// is_error false while every proxy call was denied, so the report is the only place it shows.
func denied(rep report) *fault.Error {
	count := map[string]int{}
	for _, d := range rep.PermissionDenials {
		count[d.ToolName]++
	}
	names := make([]string, 0, len(count))
	for n, c := range count {
		if c > 1 {
			n = fmt.Sprintf("%s (%d times)", n, c)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return fault.New(fault.ExecutionAgentPermissionDenied, "claude refused %d tool call(s) the model made: %s",
		len(rep.PermissionDenials), strings.Join(names, ", ")).
		WithHint("with the proxy, awf grants exactly the tools mcp_proxy.intent.allow permits: add the variant there; for Claude's own tools use options.allowed_tools or options.permission_mode")
}
