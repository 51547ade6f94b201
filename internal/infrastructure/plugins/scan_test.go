package plugins

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolscan"
)

func TestScanToolKeepsOnlyTheServersHints(t *testing.T) {
	ann := tool.Annotations{Title: "T", ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(false)}
	op := ports.PluginOperation{Name: "delete_x", Title: "Del", Description: "d", OutputDescription: "o",
		InputSchema: json.RawMessage(`{}`), OutputSchema: json.RawMessage(`{"a":1}`), Annotations: ann}
	for from, hints := range map[string]bool{"": true, "server": true, "override": false, "default": false} {
		op.AnnotationsFrom = from
		st := scanTool("p", op)
		if (st.ReadOnlyHint != nil) != hints || (st.DestructiveHint != nil) != hints {
			t.Errorf("from %q: hints %v %v", from, st.ReadOnlyHint, st.DestructiveHint)
		}
		if st.Server != "p" || st.Title != "Del" || st.AnnotationsTitle != "T" || st.OutputDescription != "o" || string(st.OutputSchema) != `{"a":1}` {
			t.Errorf("from %q: %+v", from, st)
		}
		found := toolscan.HasHigh(toolscan.Scan([]toolscan.Tool{st}), "p", "delete_x")
		if found != hints {
			t.Errorf("from %q: annotation-mismatch found %v", from, found)
		}
	}
}

func TestHeldMessage(t *testing.T) {
	fs := []toolscan.Finding{
		{Rule: "model-instructions", Severity: toolscan.High, Server: "p", Tool: "t\x1b", Field: "description", Message: "m", Text: "x"},
		{Rule: "secret", Severity: toolscan.Medium, Server: "p", Tool: "t\x1b", Field: "title", Message: "s", Text: "y"},
		{Rule: "credential-path", Severity: toolscan.High, Server: "p", Tool: "other", Field: "description", Message: "c", Text: "z"},
	}
	msg := HeldMessage("p", "t\x1b", fs)
	want := "tool t\\u001B of plugin p is held out of the step (model-instructions in description: m: x); review its definition (`awf plugins scan`) and, if you trust it, run `awf plugins lock --accept p/t\\u001B`"
	if msg != want || strings.ContainsRune(msg, 0x1b) {
		t.Errorf("got  %s\nwant %s", msg, want)
	}
}
