// Command floor is the reference point of awf's benchmarks: a bare go-sdk MCP server on stdio
// whose tools do no I/O, so what it costs per call is the SDK server's own floor.
//
//	blob {size}: returns size bytes of fixed ASCII text from a tiny request, what a 4 KiB Read
//	             returns without the disk (the fair floor of a Read: same reply, same request size);
//	echo {text}: returns text unchanged.
//
// Both are registered with the low-level Server.AddTool (a hand-written schema, raw arguments),
// the path a server that proxies its own tool registry takes, as awf's pkg/mcpserver does.
// FLOOR_TOOLS names a JSON file of tools to list as well (calls to them are refused): the
// cold-start benchmark gives the floor awf's own tool list, so that both answer tools/list with
// the same bytes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "blob", Description: "Return size bytes of fixed ASCII text (no disk I/O).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"integer"}},"required":["size"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Size int `json:"size"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || in.Size < 0 || in.Size > 64<<20 {
				return text(fmt.Sprintf("bad size: %v", err), true), nil
			}
			return text(blob(in.Size), false), nil
		})
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Return the text argument unchanged.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return text(err.Error(), true), nil
			}
			return text(in.Text, false), nil
		})
	if err := addListed(s, os.Getenv("FLOOR_TOOLS")); err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

func text(s string, isErr bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: isErr, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

var (
	blobMu    sync.Mutex
	blobCache = map[int]string{}
)

// blob returns size bytes of 64-byte ASCII lines, built once per size.
func blob(size int) string {
	blobMu.Lock()
	defer blobMu.Unlock()
	if s, ok := blobCache[size]; ok {
		return s
	}
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(fmt.Sprintf("floor blob line %08d abcdefghijklmnopqrstuvwxyz 0123456789 ABCDEFGHIJ", i)[:63])
		sb.WriteByte('\n')
	}
	s := sb.String()[:size]
	blobCache[size] = s
	return s
}

// addListed adds the tools of file (a JSON array of tools as a tools/list answer lists them) to
// s, with a handler that refuses every call: a benchmark that compares awf's start-up with the
// floor's makes the floor list the same tools, so that both answer tools/list with the same
// bytes, as the per-call rows give both the same reply.
func addListed(s *mcp.Server, file string) error {
	if file == "" {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var tools []*mcp.Tool
	if err := json.Unmarshal(data, &tools); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for _, t := range tools {
		s.AddTool(t, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("listed only: the floor does not run "+t.Name, true), nil
		})
	}
	return nil
}
