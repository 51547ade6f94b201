package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/tests/testkit"
)

// httpPlugins declares server-everything over Streamable HTTP as plugin "everything", with a
// header whose value comes from awf's environment and the user's word on one tool.
func httpPlugins(url string) string {
	return fmt.Sprintf(`plugins:
  everything:
    type: mcp
    url: %s
    headers: {X-Awf-Test-Token: "Bearer ${AWF_TEST_HTTP_TOKEN}"}
    annotations:
      toggle-simulated-logging: {destructiveHint: true}
`, url)
}

// TestEverythingOverStreamableHTTP: server-everything's Streamable HTTP transport on loopback,
// bridged as a `url:` plugin and driven through the real `awf mcp-serve` with the go-sdk
// client: its tools are listed with the server's annotations (the user's override where given,
// and `awf plugins list` says which came from where); text, image, resource links, embedded
// resources and structuredContent arrive as the server sends them to a client of its own;
// progress comes back before the result; a cancelled call leaves the session working; a second
// mcp-serve in split mode refuses with the seed texts; and when awf ends, it leaves no process
// behind while the HTTP server, which it does not own, stays up and answers.
func TestEverythingOverStreamableHTTP(t *testing.T) {
	srv := startEverythingHTTP(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("AWF_TEST_HTTP_TOKEN", "tok-4711")
	direct := connect(t, &mcp.StreamableClientTransport{Endpoint: srv.url, MaxRetries: -1}, nil)
	progress := make(chan *mcp.ProgressNotificationParams, 64)
	s := serveAWF(t, httpPlugins(srv.url), map[string]any{"plugin_tools": []map[string]any{{"plugin": "everything", "expose": []string{"*"}}}},
		&mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params:
			default: // a test that stopped listening must not block the client
			}
		}})

	t.Run("tools and annotations", func(t *testing.T) { checkHTTPTools(t, s, direct) })
	t.Run("content", func(t *testing.T) { checkHTTPContent(t, s.session, direct) })
	t.Run("progress", func(t *testing.T) { checkProgress(t, s.session, s.wire, progress, "http-progress") })
	t.Run("cancel", func(t *testing.T) { checkHTTPCancel(t, s, progress) })
	t.Run("a refused call keeps the session", func(t *testing.T) {
		// awf checks the arguments against the server's input schema before calling it.
		if res := callOn(t, s.session, "everything_get-sum", map[string]any{"a": "one", "b": 2}); !res.IsError || !strings.Contains(joined(res), "a: expected number, got string") {
			t.Fatalf("get-sum with a string: %s", joined(res))
		}
		if res := callOn(t, s.session, "everything_get-sum", map[string]any{"a": 1, "b": 2}); res.IsError || !strings.Contains(joined(res), "3") {
			t.Errorf("get-sum after a refused call: %s", joined(res))
		}
		// One session per mcp-serve: awf did not reconnect after any call of this test.
		if n := strings.Count(srv.stdout.String(), "Session initialized with ID"); n != 2 { // awf's and the direct client's
			t.Errorf("%d sessions initialized on the HTTP server, want 2:\n%s", n, srv.stdout.String())
		}
	})
	t.Run("sources", func(t *testing.T) {
		for _, r := range records(t, s.activity) {
			if r["source"] != "mcp:everything" {
				t.Errorf("activity record not from mcp:everything: %v", r)
			}
		}
		checkPluginsList(t, s.root)
	})
	t.Run("intent in split mode", func(t *testing.T) {
		split := serveAWF(t, httpPlugins(srv.url), map[string]any{
			"plugin_tools": []map[string]any{{"plugin": "everything", "expose": []string{"echo", "toggle-simulated-logging"}}},
			"intent":       map[string]any{"split": true, "strict_server_validation": true},
		}, nil)
		checkSeedRefusals(t, split.session, "everything_toggle-simulated-logging", map[string]any{}, "everything_echo", map[string]any{"message": "split"})
		closeAndCheckGone(t, split, false)
	})
	t.Run("awf leaves, the server stays", func(t *testing.T) {
		closeAndCheckGone(t, s, false)
		if !srv.alive() {
			t.Fatal("the HTTP server died with awf")
		}
		if res := callOn(t, direct, "echo", map[string]any{"message": "still here"}); res.IsError || !strings.Contains(joined(res), "still here") {
			t.Errorf("the HTTP server after awf left: %v", joined(res))
		}
		// awf ends its HTTP sessions (DELETE), one per mcp-serve, rather than leaving them open.
		if !testkit.Eventually(10*time.Second, func() bool {
			return strings.Count(srv.stdout.String(), "Received session termination request") >= 2
		}) {
			t.Errorf("awf did not end its sessions on the HTTP server; its stdout:\n%s", srv.stdout.String())
		}
	})
}

// checkHTTPTools compares what awf lists with what the server lists: every tool, prefixed,
// with the server's description and annotations, but the one the user overrode.
func checkHTTPTools(t *testing.T, s *awfServe, direct *mcp.ClientSession) {
	ctx := context.Background()
	want := map[string]*mcp.Tool{}
	for tl, err := range direct.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		want["everything_"+tl.Name] = tl
	}
	n := 0
	for tl, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tl.Name, "everything_") {
			continue // awf's built-in tools
		}
		d, ok := want[tl.Name]
		if !ok {
			t.Errorf("awf lists %s, which the server does not offer a client of its own", tl.Name)
			continue
		}
		n++
		wa := *d.Annotations
		if tl.Name == "everything_toggle-simulated-logging" {
			wa.DestructiveHint = ptr(true) // the user's word wins
		}
		g, _ := json.Marshal(tl.Annotations)
		w, _ := json.Marshal(&wa)
		if !bytes.Equal(g, w) || tl.Description != d.Description {
			t.Errorf("%s through awf: annotations %s, description %q\ndirect: %s, %q", tl.Name, g, tl.Description, w, d.Description)
		}
	}
	for _, core := range []string{"echo", "get-tiny-image", "get-resource-reference", "trigger-long-running-operation", "toggle-simulated-logging"} {
		if _, ok := want["everything_"+core]; !ok {
			t.Errorf("the server does not list %s: %v", core, want)
		}
	}
	if n < 10 {
		t.Errorf("awf lists only %d of the server's tools", n)
	}
}

func ptr[T any](v T) *T { return &v }

// createdAt is the time server-everything writes into each embedded resource it makes.
var createdAt = regexp.MustCompile(`created at [0-9:]+\s*[APM]*`)

// checkHTTPContent calls the tools that return each kind of content both ways and compares
// the results byte for byte (embedded resources but for the time they were made at).
func checkHTTPContent(t *testing.T, via, direct *mcp.ClientSession) {
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"echo", map[string]any{"message": "héllo\n\"quoted\""}},
		{"get-tiny-image", map[string]any{}},
		{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": true}},
		{"get-resource-links", map[string]any{"count": 3}},
		{"get-structured-content", map[string]any{"location": "New York"}},
		{"get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 3}},
		{"get-resource-reference", map[string]any{"resourceType": "Blob", "resourceId": 4}},
	} {
		w, g := comparable(callOn(t, direct, c.tool, c.args)), comparable(callOn(t, via, "everything_"+c.tool, c.args))
		if !bytes.Equal(g, w) {
			t.Errorf("%s through awf:\n%s\ndirect:\n%s", c.tool, g, w)
		}
	}
	res := callOn(t, via, "everything_get-annotated-message", map[string]any{"messageType": "success", "includeImage": true})
	if len(res.Content) != 2 {
		t.Fatalf("annotated message: %d blocks", len(res.Content))
	}
	if txt, ok := res.Content[0].(*mcp.TextContent); !ok || txt.Annotations == nil || txt.Annotations.Priority != 0.7 {
		t.Errorf("annotated text = %#v", res.Content[0])
	}
	if img, ok := res.Content[1].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
		t.Errorf("image = %#v", res.Content[1])
	}
	res = callOn(t, via, "everything_get-resource-reference", map[string]any{"resourceType": "Blob", "resourceId": 2})
	var found bool
	for _, c := range res.Content {
		if e, ok := c.(*mcp.EmbeddedResource); ok && e.Resource.URI == "demo://resource/dynamic/blob/2" && bytes.HasPrefix(e.Resource.Blob, []byte("Resource 2: This is a base64 blob")) {
			found = true
		}
	}
	if !found {
		t.Errorf("blob resource through awf: %v", res.Content)
	}
}

// comparable is a result's content, structuredContent and isError as JSON, with the time an
// embedded resource was made at blanked.
func comparable(r *mcp.CallToolResult) []byte {
	for _, c := range r.Content {
		if e, ok := c.(*mcp.EmbeddedResource); ok && e.Resource != nil {
			e.Resource.Text = createdAt.ReplaceAllString(e.Resource.Text, "created at T")
			e.Resource.Blob = createdAt.ReplaceAll(e.Resource.Blob, []byte("created at T"))
		}
	}
	b, _ := json.Marshal(struct {
		C []mcp.Content
		S any
		E bool
	}{r.Content, r.StructuredContent, r.IsError})
	return b
}

// checkHTTPCancel cancels a long call once it reports progress: the client gets the
// cancellation at once, mcp-serve logs that it told the server, the call is recorded as
// cancelled, and the session to the server keeps working.
func checkHTTPCancel(t *testing.T, s *awfServe, progress chan *mcp.ProgressNotificationParams) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cctx, ccancel := context.WithCancel(ctx)
	params := &mcp.CallToolParams{Name: "everything_trigger-long-running-operation", Arguments: map[string]any{"duration": 60, "steps": 600}}
	params.SetProgressToken("http-cancel")
	errc := make(chan error, 1)
	start := time.Now()
	go func() { _, err := s.session.CallTool(cctx, params); errc <- err }()
	select {
	case p := <-progress:
		if p.ProgressToken != "http-cancel" {
			t.Errorf("progress of the long call = %+v", p)
		}
	case <-ctx.Done():
		t.Fatal("the long call never reported progress")
	}
	ccancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	if res := callOn(t, s.session, "everything_echo", map[string]any{"message": "after cancel"}); res.IsError || !strings.Contains(joined(res), "after cancel") {
		t.Errorf("echo after a cancelled call: %s", joined(res))
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the cancelled call held the session for %s", d)
	}
	if !testkit.Eventually(10*time.Second, func() bool {
		b, _ := os.ReadFile(s.log)
		return bytes.Contains(b, []byte("MCP call cancelled; the server was told"))
	}) {
		b, _ := os.ReadFile(s.log)
		t.Errorf("mcp-serve's log does not say the server was told:\n%s", b)
	}
	if !testkit.Eventually(10*time.Second, func() bool {
		for _, r := range records(t, s.activity) {
			if r["tool"] == "everything_trigger-long-running-operation" && r["code"] == "EXECUTION.TOOL.CANCELLED" {
				return true
			}
		}
		return false
	}) {
		t.Errorf("no cancelled record: %v", records(t, s.activity))
	}
}

// checkSeedRefusals calls a tool the server (or the user) marks destructive through the read
// and write doors, and with a mismatched intent, expecting the seeds' refusal texts; the
// read-only tool passes the read door.
func checkSeedRefusals(t *testing.T, s *mcp.ClientSession, destructive string, destructiveArgs map[string]any, readOnly string, readArgs map[string]any) {
	t.Helper()
	for _, c := range []struct {
		door string
		args map[string]any
		want string
	}{
		{"call_tool_read", map[string]any{"name": destructive, "args": destructiveArgs}, "Tool '" + destructive + "' is marked destructive by server, use call_tool_destructive"},
		{"call_tool_write", map[string]any{"name": destructive, "args": destructiveArgs}, "Tool '" + destructive + "' is marked destructive by server, use call_tool_destructive"},
		{"call_tool_destructive", map[string]any{"name": destructive, "args": destructiveArgs, "intent": map[string]any{"operation_type": "read"}},
			"Intent mismatch: tool is call_tool_destructive but intent declares read"},
	} {
		res := callOn(t, s, c.door, c.args)
		if !res.IsError || joined(res) != c.want {
			t.Errorf("%s %s: isError=%v %q\nwant %q", c.door, destructive, res.IsError, joined(res), c.want)
		}
	}
	if res := callOn(t, s, "call_tool_read", map[string]any{"name": readOnly, "args": readArgs}); res.IsError {
		t.Errorf("call_tool_read %s: %s", readOnly, joined(res))
	}
}

// checkPluginsList runs `awf plugins list` on the same declaration: each tool's variant and
// where its annotations came from (server, or the user's override).
func checkPluginsList(t *testing.T, root string) {
	t.Helper()
	got := pluginOps(t, root)
	for name, want := range map[string]string{
		"echo":                           "server read",
		"get-tiny-image":                 "server read",
		"gzip-file-as-resource":          "server write",
		"toggle-simulated-logging":       "override destructive",
		"trigger-long-running-operation": "server read",
	} {
		if got[name] != want {
			t.Errorf("plugins list: %s is %q, want %q (all: %v)", name, got[name], want, got)
		}
	}
}

// pluginOps runs `awf plugins list --format json` in root and returns, for each operation of
// its one plugin, "<annotations_from> <call_with>".
func pluginOps(t *testing.T, root string) map[string]string {
	t.Helper()
	out, err := exec.Command(bins.AWF, "plugins", "list", "--format", "json", "--root", root).Output()
	if err != nil {
		t.Fatalf("awf plugins list: %v\n%s", err, out)
	}
	var list struct {
		Plugins []struct {
			Error      string
			Operations []struct {
				Name            string
				CallWith        string `json:"call_with"`
				AnnotationsFrom string `json:"annotations_from"`
			}
		}
	}
	if err := json.Unmarshal(out, &list); err != nil || len(list.Plugins) != 1 || list.Plugins[0].Error != "" {
		t.Fatalf("awf plugins list: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, op := range list.Plugins[0].Operations {
		got[op.Name] = op.AnnotationsFrom + " " + op.CallWith
	}
	return got
}

// closeAndCheckGone ends the client's session and checks that mcp-serve exited and that no
// process it started outlives it; stdio says whether it should have started any (a url plugin
// starts none at all).
func closeAndCheckGone(t *testing.T, s *awfServe, stdio bool) {
	t.Helper()
	pid := s.cmd.Process.Pid
	kids := descendants(pid)
	switch {
	case stdio && len(kids) == 0:
		t.Errorf("no server process below mcp-serve (pid %d)", pid)
	case !stdio && len(kids) > 0:
		t.Errorf("mcp-serve started processes for a url plugin: %v", kids)
	}
	if err := s.session.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	if s.cmd.ProcessState == nil {
		t.Errorf("mcp-serve (pid %d) still running after its client left", pid)
	}
	gone := func() bool {
		for _, k := range kids {
			if running(k) {
				return false
			}
		}
		return true
	}
	if !testkit.Eventually(10*time.Second, gone) {
		for _, k := range kids {
			if running(k) {
				t.Errorf("process %d outlived mcp-serve: %s", k, testkit.State(k))
			}
		}
	}
}

// running reports whether pid is a live process; a zombie has ended, and only waits for
// whoever inherited it to reap it.
func running(pid int) bool {
	st := testkit.State(pid)
	i := strings.LastIndexByte(st, ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(st[i+1:]), "Z")
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The comm field may hold spaces; the fields after its closing parenthesis do not.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// joined is a result's text blocks, joined by newlines.
func joined(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
