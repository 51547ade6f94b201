package pluginadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// A caller that wants progress gets the server's reports; one that does not, gets none.
func TestMCPProgressReachesTheCaller(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n", bin))
	p := New(h, "fix", []string{"slow"})
	var got []tool.Progress
	ctx := tool.WithProgress(context.Background(), func(pr tool.Progress) { got = append(got, pr) })
	res, err := p.CallTool(ctx, "fix_slow", json.RawMessage(`{"steps":2}`))
	if err != nil || res.JoinedText() != "done after 2 steps" {
		t.Fatalf("slow: %+v %v", res, err)
	}
	want := []tool.Progress{{Progress: 1, Total: 2, Message: "step 1"}, {Progress: 2, Total: 2, Message: "step 2"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("progress = %+v, want %+v", got, want)
	}
}

// awf's stdio client skips a banner a wrapper prints on stdout, and carries a result far
// larger than its read buffer whole.
func TestMCPStdioBannerAndBigResult(t *testing.T) {
	bin := mcpFixture(t)
	h := mcpHost(t, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s, env: {FIXTURE_BANNER: \"1\"}}\n", bin))
	p := New(h, "fix", []string{"echo", "big"})
	if res, err := p.CallTool(context.Background(), "fix_echo", json.RawMessage(`{"text":"after a banner"}`)); err != nil || res.JoinedText() != "echo: after a banner" {
		t.Fatalf("echo: %+v %v", res, err)
	}
	res, err := p.CallTool(context.Background(), "fix_big", json.RawMessage(`{"bytes":1000000}`))
	if err != nil || len(res.JoinedText()) != 1000000 {
		t.Fatalf("big: %d bytes, %v", len(res.JoinedText()), err)
	}
}
