package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//lint:file-ignore SA1019 MCP logging (notifications/message) is deprecated by SEP-2577 but still what servers send.

// Fixed payloads of the content tool, so a test can compare what arrives byte for byte.
var (
	// fixtureImage is a PNG header and a few bytes that are not valid UTF-8.
	fixtureImage = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0xff, 0xfe, 1, 2, 3}
	fixtureAudio = []byte("RIFF\x24\x00\x00\x00WAVEfmt \xff\x00")
	fixtureBlob  = []byte{0, 1, 2, 253, 254, 255}
)

type slowIn struct {
	Steps int `json:"steps,omitempty"`
	// Wait makes the call wait, after its progress, until it is cancelled.
	Wait bool `json:"wait,omitempty"`
	// Record is a file the call writes "cancelled" to when it is cancelled.
	Record string `json:"record,omitempty"`
}

type logIn struct {
	Text string `json:"text"`
}

// addFaithfulTools adds the tools that test faithful proxying: one block of each content type
// with structuredContent and _meta, progress and cancellation, log notifications and stderr,
// and a server that freezes.
func addFaithfulTools(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	s.AddTool(&mcp.Tool{Name: "content", Description: "Returns one block of each MCP content type, structuredContent and _meta.", Annotations: ro,
		InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		size := int64(len(fixtureBlob))
		return &mcp.CallToolResult{
			Content: []mcp.Content{
				&mcp.TextContent{Text: "plain text"},
				&mcp.TextContent{Text: "annotated", Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5}, Meta: mcp.Meta{"block": "meta"}},
				&mcp.ImageContent{MIMEType: "image/png", Data: fixtureImage},
				&mcp.AudioContent{MIMEType: "audio/wav", Data: fixtureAudio},
				&mcp.ResourceLink{URI: "file:///fixture/readme.txt", Name: "readme.txt", MIMEType: "text/plain", Size: &size},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "fixture://text", MIMEType: "text/plain", Text: "embedded text"}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "fixture://blob", MIMEType: "application/octet-stream", Blob: fixtureBlob}},
			},
			StructuredContent: map[string]any{"temperature": 21.5, "conditions": "clear", "list": []any{1, "two"}},
			Meta:              mcp.Meta{"fixture": "result-meta"},
		}, nil
	})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Returns isError with an image.", Annotations: ro, InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it failed"}, &mcp.ImageContent{MIMEType: "image/png", Data: fixtureImage}}}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Reports progress steps (when asked), then waits to be cancelled if told to.", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= in.Steps; i++ {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
				}
			}
			if !in.Wait {
				return text(fmt.Sprintf("done after %d steps", in.Steps)), nil, nil
			}
			<-ctx.Done()
			if in.Record != "" {
				_ = os.WriteFile(in.Record, []byte("cancelled"), 0o600)
			}
			return text("cancelled"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Returns a text of the given size.", Annotations: ro},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Bytes int `json:"bytes"`
		}) (*mcp.CallToolResult, any, error) {
			return text(strings.Repeat("b", in.Bytes)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "log", Description: "Sends a log notification and writes a line to stderr.", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "fixture", Data: "fixture log " + in.Text})
			fmt.Fprintln(os.Stderr, "fixture stderr "+in.Text)
			return text("logged"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "freeze", Description: "Turns the server into `sleep` (same pid, same pipes): it answers nothing, not even a ping.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, empty) (*mcp.CallToolResult, any, error) {
			sleep, err := exec.LookPath("sleep")
			if err != nil {
				return nil, nil, err
			}
			return nil, nil, syscall.Exec(sleep, []string{"sleep", "300"}, os.Environ())
		})
}
