package run

import (
	"encoding/json"
	"maps"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// withSystemPrompt returns the step's options with its rendered system_prompt added: every
// provider takes it as the common option system_prompt, each in its CLI's own way.
func withSystemPrompt(st *workflow.State, spec *workflow.AgentSpec, scope Scope) (map[string]any, string, error) {
	if spec.SystemPrompt == "" {
		return spec.Options, "", nil
	}
	sp, err := render(st.Name+".system_prompt", spec.SystemPrompt, scope, st.ValueAt("system_prompt"))
	if err != nil {
		return nil, "", err
	}
	opts := maps.Clone(spec.Options)
	if opts == nil {
		opts = map[string]any{}
	}
	opts["system_prompt"] = sp
	return opts, sp, nil
}

// formatOutput applies output_format to an agent's answer: text and json strip one code fence
// around it; json also parses it, and an answer that is not JSON fails the step.
func formatOutput(st *workflow.State, format string, out *Outcome) {
	if format == "" {
		return
	}
	out.Output = stripFence(out.Output)
	if format != workflow.OutputJSON {
		return
	}
	var v any
	if err := json.Unmarshal([]byte(out.Output), &v); err != nil {
		out.Status, out.ExitCode = StepFailure, -1
		out.Error = fault.New(fault.UserAgentOutputFormat, "step %q asks for output_format: json, and the answer is not JSON: %v", st.Name, err).Error()
		return
	}
	out.JSON = v
}

// stripFence removes a Markdown code fence around text (```json … ```), leaving other text as
// it is.
func stripFence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") {
		return t
	}
	body := strings.TrimSuffix(t, "```")
	_, body, ok := strings.Cut(body, "\n") // drop the opening fence and its language tag
	if !ok {
		return t
	}
	return strings.TrimSpace(body)
}
