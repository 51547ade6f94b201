package stepproxy

import (
	"context"
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestSummarySaysWhatWasConfined(t *testing.T) {
	ro := &tool.Confinement{Enforced: true, ABI: 7, Policy: "read", Network: false}
	rw := &tool.Confinement{Enforced: true, ABI: 7, Policy: "write", Network: true}
	off := &tool.Confinement{Reason: "no Landlock"}
	for _, tc := range []struct {
		recs source
		want string
	}{
		{source{
			{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}, Sandbox: ro},
			{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeError, Intent: tool.Intent{Variant: "read"}, Sandbox: ro},
			{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "write"}, Sandbox: rw},
		}, "tool calls: Bash×1 read, Bash×1 read error, Bash×1 write; Bash sandboxed: 2 read, 1 write (Landlock ABI 7, no network)"},
		{source{
			{RunID: "r1", Step: "review", Tool: "Bash", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "destructive"}, Sandbox: off},
		}, "tool calls: Bash×1 destructive; Bash NOT sandboxed: 1 call(s) (no Landlock)"},
	} {
		fx := newFixture(tc.recs)
		sess, err := fx.svc.Prepare(context.Background(), agentStep("openai_compatible"))
		if err != nil {
			t.Fatal(err)
		}
		if summary, _ := sess.Finish(context.Background(), nil); summary != tc.want {
			t.Errorf("summary %q\nwant    %q", summary, tc.want)
		}
	}
}
