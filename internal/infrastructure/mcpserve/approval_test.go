package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
)

var destructive = true

// destrProvider serves one destructive tool, fake_wipe, that only echoes.
type destrProvider struct{ echoProvider }

func (p *destrProvider) ListTools(context.Context) ([]tool.Definition, error) {
	return []tool.Definition{{Name: "fake_wipe", Description: "pretends to wipe", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: tool.Annotations{DestructiveHint: &destructive}, Source: tool.PluginSource("fake")}}, nil
}

// In an mcp-serve whose config sets intent.ask and approvals_dir, a destructive call waits in
// the approvals directory; approved there by the API it runs, and its record says so.
func TestServeHoldsAskedCalls(t *testing.T) {
	run := t.TempDir()
	dir := filepath.Join(run, approvals.DirName)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg := toolset.Spec{Root: t.TempDir(), ActivityFile: filepath.Join(run, "activity.jsonl"), ApprovalsDir: dir,
		Intent:      toolset.Intent{Strict: true, Ask: []tool.Variant{tool.VariantDestructive}, ApprovalTimeout: time.Minute},
		PluginTools: []toolset.PluginTools{{Plugin: "fake", Expose: []string{"*"}}}}
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), cfg, Deps{Providers: []ports.ToolProvider{&destrProvider{}}}, inR, outW)
	}()
	answers := make(chan map[string]any, 4)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] != nil {
				answers <- m
			}
		}
	}()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	<-answers
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fake_wipe","arguments":{"what":"nothing"}}}`)
	d := approvals.Dir{Path: dir}
	var pending []approvals.Pending
	for range 300 {
		if pending, _ = d.List(); len(pending) == 1 {
			break
		}
		select {
		case m := <-answers:
			t.Fatalf("answered before any decision: %v", m)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if len(pending) != 1 || pending[0].Tool != "fake_wipe" {
		t.Fatalf("pending = %+v", pending)
	}
	if err := d.Decide(pending[0].ID, activity.ApprovalApprove, activity.ApprovedByAPI); err != nil {
		t.Fatal(err)
	}
	m := <-answers
	if res, _ := m["result"].(map[string]any); res == nil || res["isError"] == true {
		t.Fatalf("approved call: %v", m)
	}
	data, _ := os.ReadFile(cfg.ActivityFile)
	if !strings.Contains(string(data), `"approval":{"decision":"approve","by":"api"`) {
		t.Fatalf("record: %s", data)
	}
	_ = inW.Close()
	<-served
}
