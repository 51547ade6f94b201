package mcpserve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBridgedOutputSchemaIsChecked: the fixture's weather tools declare an outputSchema, a
// title, icons and _meta. Through awf they are listed with all four as the fixture lists them;
// a result whose structuredContent conforms passes unchanged; one that violates the schema, or
// has no structuredContent, reaches the agent as an error result that says why, without the
// structuredContent, and is recorded as an error with that text.
func TestBridgedOutputSchemaIsChecked(t *testing.T) {
	s, bin := fixtureServe(t, "    env: {FIXTURE_SCHEMA: \"1\"}\n", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "FIXTURE_SCHEMA=1")
	d, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()

	want := toolsByName(t, d, "")
	got := toolsByName(t, s.session, "fix_")
	for _, name := range []string{"weather", "bad-weather", "no-weather"} {
		w, g := want[name], got[name]
		if g == nil || w == nil {
			t.Fatalf("%s: listed through awf %v, directly %v", name, g != nil, w != nil)
		}
		for _, f := range []struct {
			field     string
			got, want any
		}{{"title", g.Title, w.Title}, {"outputSchema", g.OutputSchema, w.OutputSchema}, {"icons", g.Icons, w.Icons}, {"_meta", g.Meta, w.Meta},
			{"inputSchema", g.InputSchema, w.InputSchema}, {"description", g.Description, w.Description}} {
			gj, _ := json.Marshal(f.got)
			wj, _ := json.Marshal(f.want)
			if string(gj) != string(wj) || string(wj) == "null" || string(wj) == `""` { // the fixture sets every field
				t.Errorf("%s.%s through awf = %s, direct %s", name, f.field, gj, wj)
			}
		}
	}

	ok := callRaw(t, s.session, "fix_weather", map[string]any{})
	if ok.IsError || !reflect.DeepEqual(ok.StructuredContent, map[string]any{"temperature": 21.5, "conditions": "clear"}) {
		t.Errorf("conforming result: isError %v, structured %v", ok.IsError, ok.StructuredContent)
	}
	for _, c := range []struct{ tool, why string }{
		{"bad-weather", "temperature"},
		{"no-weather", "it has no structuredContent"},
	} {
		res := callRaw(t, s.session, "fix_"+c.tool, map[string]any{})
		text := textOfResult(res)
		if !res.IsError || res.StructuredContent != nil || !strings.Contains(text, "does not match the output schema") || !strings.Contains(text, c.why) ||
			!strings.Contains(text, "the weather") {
			t.Errorf("%s: isError %v, structured %v, text %q", c.tool, res.IsError, res.StructuredContent, text)
		}
	}
	recs := s.records(t)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	if recs[0]["outcome"] != "success" {
		t.Errorf("conforming call recorded as %v", recs[0])
	}
	for _, r := range recs[1:] {
		if r["outcome"] != "error" || !strings.Contains(fmt.Sprint(r["error"]), "does not match the output schema") {
			t.Errorf("refused result recorded as %v", r)
		}
	}
}

// toolsByName lists the session's tools whose name starts with prefix, by name without it.
func toolsByName(t *testing.T, s *mcp.ClientSession, prefix string) map[string]*mcp.Tool {
	t.Helper()
	out := map[string]*mcp.Tool{}
	for tl, err := range s.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if name, ok := strings.CutPrefix(tl.Name, prefix); ok {
			out[name] = tl
		}
	}
	return out
}

func textOfResult(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
