package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addEnvLeakTool adds, when FIXTURE_ENV_LEAK names environment variables (comma-separated),
// the tool leak-env: it fails with the values of those variables in its error text, and sends
// them in a log notification and on stderr, without their names. It is the server that prints
// the credentials plugins.yaml gave it, for the tests that the values stay out of awf's
// records and log (docs/decisions/0011-values-are-data-secrets-are-masked.md).
func addEnvLeakTool(s *mcp.Server) {
	names := os.Getenv("FIXTURE_ENV_LEAK")
	if names == "" {
		return
	}
	mcp.AddTool(s, &mcp.Tool{Name: "leak-env", Description: "Fails with the values of some of its environment variables.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
			var values []string
			for _, n := range strings.Split(names, ",") {
				values = append(values, os.Getenv(n))
			}
			line := "fixture values: " + strings.Join(values, " ")
			//lint:ignore SA1019 servers still send log notifications in the deprecation window; awf must mask them
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "fixture", Data: line})
			fmt.Fprintln(os.Stderr, line)
			res := text(line)
			res.IsError = true
			return res, nil, nil
		})
}
