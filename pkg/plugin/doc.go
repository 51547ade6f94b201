// Package plugin is the SDK for writing awf plugins in Go. A plugin is a small program that
// offers named operations; a workflow step exposes some of them to its agent as tools named
// <plugin>_<operation>, and every call goes through awf's tool router like a built-in tool
// (schema check, intent rule, span, log line, activity record).
//
// Declare the operations with their JSON Schema and MCP-style annotations, give each a handler,
// and call Serve from main. Serve speaks HashiCorp go-plugin over gRPC (handshake cookie,
// protocol version 1, the awf.plugin.v1 service) and returns when awf stops the plugin.
//
// A complete plugin:
//
//	package main
//
//	import (
//		"context"
//		"encoding/json"
//		"strings"
//
//		"github.com/awf-dev/awf/pkg/plugin"
//	)
//
//	func main() {
//		plugin.Serve(&plugin.Plugin{
//			Name:    "shout",
//			Version: "1.0.0",
//			Operations: []plugin.Operation{{
//				Name:        "upper",
//				Description: "Return the text in upper case.",
//				InputSchema: `{
//					"type": "object",
//					"properties": {"text": {"type": "string", "description": "Text to convert"}},
//					"required": ["text"],
//					"additionalProperties": false
//				}`,
//				Annotations: plugin.Annotations{ReadOnly: plugin.Bool(true), Idempotent: plugin.Bool(true)},
//				Handler: func(ctx context.Context, args json.RawMessage) (plugin.Result, error) {
//					var in struct{ Text string `json:"text"` }
//					if err := plugin.DecodeArgs(args, &in); err != nil {
//						return plugin.Result{}, err
//					}
//					return plugin.Text(strings.ToUpper(in.Text)), nil
//				},
//			}},
//		})
//	}
//
// Build it, declare it in .awf/plugins.yaml and expose its operation in a step:
//
//	# .awf/plugins.yaml
//	plugins:
//	  shout:
//	    command: bin/plugins/shout   # relative to the project root
//	    config: {}                   # handed to Plugin.Init as JSON
//
//	# in a workflow's agent state
//	mcp_proxy:
//	  enable: true
//	  plugin_tools:
//	    - plugin: shout
//	      expose: [upper]            # the agent sees tool "shout_upper"
//
// Annotations matter: awf's intent rule derives how a tool may be called from them
// (ReadOnly → read, Destructive → destructive, otherwise write), and some agents refuse to call
// tools that declare nothing. Leave a hint nil only when it is truly unknown.
//
// Results: a handler returns Text, JSON or Errorf results. Returning a Go error is the same as
// Errorf with its message: the model reads it and can react. Panics are recovered and reported
// as error results, so one bad call does not take the plugin down. Handlers run concurrently and
// must honour ctx, which is cancelled when the agent's call is.
//
// The plugin's stdout and stderr belong to the protocol and to awf's log: write diagnostics
// with Logger, whose lines land in awf's log with the plugin's name.
package plugin
