package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// A bridged MCP tool's image and structuredContent reach the model as their MCP JSON, not as
// the payload-free summaries the logs keep: the model must see what the server returned.
func TestNonTextToolResultReachesTheModelAsJSON(t *testing.T) {
	ms := newModelServer(t,
		sse(toolChunk(0, "c1", "pic", `{}`), finishChunk("tool_calls")),
		answer("seen"))
	sess := newSession("pic")
	img := `{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}`
	sess.results["pic"] = tool.Result{
		Content:    []tool.Content{{Type: "text", Text: "a picture:"}, {Type: "image", Text: "[image image/png, 8 bytes]", Raw: json.RawMessage(img)}},
		Structured: json.RawMessage(`{"w":1}`),
	}
	if _, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil)); err != nil {
		t.Fatal(err)
	}
	if got := ms.got()[1].messages()[2]["content"]; got != "a picture:\n"+img {
		t.Errorf("tool message = %q", got)
	}
}
