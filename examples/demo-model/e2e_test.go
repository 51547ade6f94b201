package main

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/agents/openai"
)

// stepSession stands in for the router of a step with `allow: [read, write]`: Bash is not
// listed and refused when called anyway; the other tools answer like the real ones.
type stepSession struct {
	mu    sync.Mutex
	calls []string
}

func (s *stepSession) ListTools() []tool.Definition {
	var defs []tool.Definition
	for _, n := range []string{"Read", "Write", "Edit", "Glob", "Grep", "notes_get", "notes_put", "notes_list"} {
		defs = append(defs, tool.Definition{Name: n, InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{},"text":{}}}`)})
	}
	return defs
}

func (s *stepSession) CallTool(_ context.Context, name string, args json.RawMessage) tool.Result {
	s.mu.Lock()
	s.calls = append(s.calls, name+" "+string(args))
	s.mu.Unlock()
	switch name {
	case "Read":
		return tool.Text("     1\t# awf\n     2\t")
	case "Grep":
		return tool.Text("README.md\nMakefile")
	case "notes_put":
		return tool.Text(`created note "awf-demo/quickstart"`)
	case "notes_get":
		return tool.Text("Written by awf's scripted demo model through the notes plugin.")
	}
	return tool.Error("Tool '" + name + "' is not allowed in this step (allow: read, write)")
}

// TestTheProviderRunsTheWholeScript drives the demo model with awf's own openai_compatible
// provider: the quickstart's conversation, minus the real router.
func TestTheProviderRunsTheWholeScript(t *testing.T) {
	srv := httptest.NewServer(newHandler(log.New(io.Discard, "", 0)))
	defer srv.Close()
	sess := &stepSession{}
	p := openai.New(nil, nil, nil, openai.WithGetenv(func(string) string { return "" }))
	res, err := p.Run(context.Background(), ports.AgentRequest{
		Step: "explore", Prompt: "Explore the repository", Tools: sess,
		Options: map[string]any{"base_url": srv.URL + "/v1", "model": "awf-demo"},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []string{
		`Read {"file_path":"README.md","limit":5}`,
		`Grep {"head_limit":5,"output_mode":"files_with_matches","pattern":"awf"}`,
		`Bash {"command":"rm -rf /tmp/awf-demo-should-not-run","description":"deliberately destructive demo call"}`,
		`notes_put {"key":"awf-demo/quickstart","text":"Written by awf's scripted demo model through the notes plugin."}`,
		`notes_get {"key":"awf-demo/quickstart"}`,
	}
	if strings.Join(sess.calls, "\n") != strings.Join(wantCalls, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(sess.calls, "\n"), strings.Join(wantCalls, "\n"))
	}
	for _, want := range []string{"scripted demo model", `first line "# awf"`, "refused or failed: \"Tool 'Bash' is not allowed", "notes_get awf-demo/quickstart: \"Written by"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if res.InputTokens == 0 || res.OutputTokens == 0 {
		t.Errorf("tokens = %d/%d, want the demo's estimates summed", res.InputTokens, res.OutputTokens)
	}
}
