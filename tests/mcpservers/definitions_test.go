package mcpservers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEverythingDefinitionsThroughAWF: over stdio and over Streamable HTTP, the tools/list of
// the real `awf mcp-serve` bridging server-everything equals, field by field, the one the
// server sends a client of its own (both read off the wire, as JSON): title, description,
// inputSchema, outputSchema, icons and _meta unchanged; only the name (everything_<name>) and
// the annotations differ, and of those only where awf fills an MCP default the server left out
// or the user overrode one. The one tool with an outputSchema, get-structured-content, is
// listed with it and its results pass awf's check against it.
func TestEverythingDefinitionsThroughAWF(t *testing.T) {
	requireServers(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	expose := map[string]any{"plugin_tools": []map[string]any{{"plugin": "everything", "expose": []string{"*"}}}}
	t.Run("stdio", func(t *testing.T) {
		directWire := &syncBuffer{}
		direct := connect(t, &mcp.LoggingTransport{Transport: &mcp.CommandTransport{Command: exec.Command(binDir + "/mcp-server-everything")}, Writer: directWire}, nil)
		s := serveAWF(t, fmt.Sprintf("plugins:\n  everything:\n    type: mcp\n    command: %s/mcp-server-everything\n", binDir), expose, nil)
		sameDefinitions(t, listedTools(t, s.session, s.wire), listedTools(t, direct, directWire), nil)
		checkStructuredContent(t, s.session, direct)
	})
	t.Run("streamable HTTP", func(t *testing.T) {
		srv := startEverythingHTTP(t)
		t.Setenv("AWF_TEST_HTTP_TOKEN", "tok-4711")
		directWire := &syncBuffer{}
		direct := connect(t, &mcp.LoggingTransport{Transport: &mcp.StreamableClientTransport{Endpoint: srv.url, MaxRetries: -1}, Writer: directWire}, nil)
		s := serveAWF(t, httpPlugins(srv.url), expose, nil)
		sameDefinitions(t, listedTools(t, s.session, s.wire), listedTools(t, direct, directWire),
			map[string]map[string]any{"toggle-simulated-logging": {"destructiveHint": true}}) // httpPlugins' override
		checkStructuredContent(t, s.session, direct)
	})
}

// listedTools lists the session's tools and returns them as the last tools/list answer on the
// wire holds them: each tool's JSON object by key, nothing decoded into the SDK's types.
func listedTools(t *testing.T, s *mcp.ClientSession, wire *syncBuffer) map[string]map[string]json.RawMessage {
	t.Helper()
	if _, err := s.ListTools(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	lines := wire.lines()
	for i := len(lines) - 1; i >= 0; i-- {
		var msg struct {
			Result struct {
				Tools []map[string]json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		line := strings.TrimPrefix(lines[i], "read: ")
		if !strings.Contains(line, `"tools":[`) || json.Unmarshal([]byte(line), &msg) != nil || len(msg.Result.Tools) == 0 {
			continue
		}
		out := map[string]map[string]json.RawMessage{}
		for _, tl := range msg.Result.Tools {
			var name string
			_ = json.Unmarshal(tl["name"], &name)
			out[name] = tl
		}
		return out
	}
	t.Fatalf("no tools/list answer on the wire:\n%.3000s", wire.String())
	return nil
}

// sameDefinitions compares awf's tools (named everything_<name>) with the server's, field by
// field. Every field but name, annotations and execution must be equal as JSON (absent on both
// sides, or the same value). Each annotation the server set must be awf's too, unless the user
// overrode it (overrides, by the server's tool name); awf may add the hints the server left out
// (MCP's defaults, which the intent rule reads). execution (taskSupport) is not passed on: it
// says whether the server runs calls as tasks, and awf, which serves no tasks, calls the
// server itself.
func sameDefinitions(t *testing.T, viaAWF, direct map[string]map[string]json.RawMessage, overrides map[string]map[string]any) {
	t.Helper()
	if len(direct) < 10 {
		t.Fatalf("the server lists only %d tools", len(direct))
	}
	withOutput := 0
	for name, d := range direct {
		g, ok := viaAWF["everything_"+name]
		if !ok {
			t.Errorf("awf does not list %s", name)
			continue
		}
		for _, key := range keysOf(d, g) {
			switch key {
			case "name", "execution":
				continue
			case "annotations":
				sameAnnotations(t, name, g[key], d[key], overrides[name])
				continue
			}
			if !sameJSON(g[key], d[key]) {
				t.Errorf("%s.%s through awf: %s\ndirect: %s", name, key, g[key], d[key])
			}
		}
		if d["outputSchema"] != nil {
			withOutput++
		}
	}
	if withOutput == 0 {
		t.Error("no tool of the server declares an outputSchema: the comparison proves nothing about it")
	}
}

// sameAnnotations: every hint the server set is awf's, or the user's override of it.
func sameAnnotations(t *testing.T, name string, viaAWF, direct json.RawMessage, override map[string]any) {
	t.Helper()
	var g, d map[string]any
	_ = json.Unmarshal(viaAWF, &g)
	_ = json.Unmarshal(direct, &d)
	for k, want := range d {
		if o, ok := override[k]; ok {
			want = o
		}
		if !reflect.DeepEqual(g[k], want) {
			t.Errorf("%s: annotation %s = %v through awf, want %v (server's %s)", name, k, g[k], want, direct)
		}
	}
	for k, want := range override {
		if !reflect.DeepEqual(g[k], want) {
			t.Errorf("%s: the override %s = %v is %v through awf", name, k, want, g[k])
		}
	}
}

// checkStructuredContent calls get-structured-content both ways: through awf it is a success
// whose structuredContent is the server's, checked against the declared outputSchema on the way.
func checkStructuredContent(t *testing.T, via, direct *mcp.ClientSession) {
	t.Helper()
	for _, city := range []string{"New York", "Chicago", "Los Angeles"} {
		args := map[string]any{"location": city}
		g, d := callOn(t, via, "everything_get-structured-content", args), callOn(t, direct, "get-structured-content", args)
		gs, _ := json.Marshal(g.StructuredContent)
		ds, _ := json.Marshal(d.StructuredContent)
		if g.IsError || g.StructuredContent == nil || !bytes.Equal(gs, ds) {
			t.Errorf("get-structured-content %s through awf: isError %v, %s (%s); direct: %s", city, g.IsError, gs, joined(g), ds)
		}
	}
}

func keysOf(maps ...map[string]json.RawMessage) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range maps {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// sameJSON reports whether a and b are the same JSON value; nil (absent) equals only nil.
func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
