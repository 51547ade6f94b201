package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestAgentSystemPromptAndOutputFormat(t *testing.T) {
	tests := []struct {
		name, format, answer, wantOutput string
		wantStatus                       StepStatus
		wantJSON                         bool
	}{
		{"no format keeps the answer", "", "```json\n{\"a\":1}\n```", "```json\n{\"a\":1}\n```", StepSuccess, false},
		{"text strips the fence", "text", "```\nhello\n```", "hello", StepSuccess, false},
		{"json parses", "json", "```json\n{\"a\":1}\n```", `{"a":1}`, StepSuccess, true},
		{"json refuses text", "json", "sorry, no", "sorry, no", StepFailure, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := agentState("p")
			spec := st.Spec.(*workflow.AgentSpec)
			spec.SystemPrompt, spec.OutputFormat = "be {{.inputs.who}}", tc.format
			ag := &fakeAgent{out: ports.AgentResult{Output: tc.answer}}
			res, _ := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": ag}}).Run(context.Background(), flow(st), map[string]string{"n": "1", "who": "brief"})
			if ag.got.SystemPrompt != "be brief" || ag.got.Options["system_prompt"] != "be brief" || ag.got.Options["model"] != "m" {
				t.Errorf("request = %+v", ag.got)
			}
			if _, leaked := spec.Options["system_prompt"]; leaked {
				t.Error("the step's own options were changed")
			}
			s := res.Steps[0]
			if s.Output != tc.wantOutput || s.Status != tc.wantStatus || (s.JSON != nil) != tc.wantJSON {
				t.Errorf("step = %+v", s)
			}
			if tc.wantStatus == StepFailure && (s.Next != "bad" || s.ExitCode != -1 || !strings.Contains(s.Error, fault.UserAgentOutputFormat)) {
				t.Errorf("failed step: next %q, error %q", s.Next, s.Error)
			}
		})
	}
}

func TestStripFence(t *testing.T) {
	for in, want := range map[string]string{
		"```":               "```",
		"``````":            "``````",
		"```\n```":          "",
		"```json\n{}\n```":  "{}",
		"  plain  ":         "plain",
		"```one line```":    "```one line```",
		"```\na\n```\ntail": "```\na\n```\ntail",
	} {
		if got := stripFence(in); got != want {
			t.Errorf("stripFence(%q) = %q, want %q", in, got, want)
		}
	}
}
