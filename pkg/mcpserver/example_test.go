package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"

	"github.com/awf-dev/awf/pkg/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A complete server with one tool. A real server calls ServeStdio and is
// spawned by its client; here the server is served over a pipe pair and
// called by the go-sdk client.
func Example() {
	ctx := context.Background()

	readOnly := true
	srv := mcpserver.New(mcpserver.Options{Name: "greeter", Version: "1.0.0"})
	err := srv.AddTool(mcpserver.Tool{
		Name:        "greet",
		Description: "Greets someone by name.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Annotations: &mcpserver.Annotations{ReadOnlyHint: &readOnly},
	}, func(ctx context.Context, args json.RawMessage) (*mcpserver.Result, error) {
		var in struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(args, &in); err != nil || in.Name == "" {
			// A tool failure the model can fix: an error result, not an error.
			return &mcpserver.Result{IsError: true, Content: []mcpserver.Content{{Type: "text", Text: `"name" must be a non-empty string`}}}, nil
		}
		return &mcpserver.Result{Content: []mcpserver.Content{{Type: "text", Text: "Hello, " + in.Name}}}, nil
	})
	if err != nil {
		log.Fatal(err)
	}

	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, toServerR, toClientW)
		_ = toClientW.Close()
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.IOTransport{Reader: toClientR, Writer: toServerW}, nil)
	if err != nil {
		log.Fatal(err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	// Closing the client closes the server's input: Serve sees EOF and
	// returns nil.
	_ = session.Close()
	fmt.Println("serve:", <-served)
	// Output:
	// Hello, Ada
	// serve: <nil>
}
