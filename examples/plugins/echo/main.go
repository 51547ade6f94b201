// Command echo is the smallest useful awf plugin: one read-only operation, echo, that returns
// the text it is given. Its optional delay_ms makes a call slow on purpose, which awf's tests
// use to kill the plugin mid-call and to measure cancellation.
//
// Build it with `make plugins` (or `go build -o bin/plugins/echo ./examples/plugins/echo`) and
// declare it in .awf/plugins.yaml; a step exposing `echo` gives its agent the tool echo_echo.
package main

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/awf-dev/awf/pkg/plugin"
)

// waitingMessage is the debug line echo logs when a call starts its delay_ms wait.
const waitingMessage = "echo is waiting"

// maxDelay bounds delay_ms so a typo cannot park a call for hours.
const maxDelay = 60_000

const echoSchema = `{
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "Text to return"},
    "upper": {"type": "boolean", "description": "Return the text in upper case", "default": false},
    "delay_ms": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 0,
      "description": "Wait this many milliseconds before answering (for testing slow tools)"}
  },
  "required": ["text"],
  "additionalProperties": false
}`

type echoArgs struct {
	Text    string `json:"text"`
	Upper   bool   `json:"upper"`
	DelayMS int    `json:"delay_ms"`
}

func echo(ctx context.Context, raw json.RawMessage) (plugin.Result, error) {
	var in echoArgs
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	if in.DelayMS < 0 || in.DelayMS > maxDelay {
		return plugin.Errorf("delay_ms must be between 0 and %d, got %d", maxDelay, in.DelayMS), nil
	}
	if in.DelayMS > 0 {
		// Logged before the wait, so a watcher of awf's log knows the call reached the handler
		// (awf's tests kill the plugin mid-call on this line instead of guessing with a sleep).
		plugin.Logger().Debug(waitingMessage, "delay_ms", in.DelayMS)
		t := time.NewTimer(time.Duration(in.DelayMS) * time.Millisecond)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return plugin.Errorf("echo was cancelled after waiting part of its %d ms delay", in.DelayMS), nil
		case <-t.C:
		}
	}
	if in.Upper {
		return plugin.Text(strings.ToUpper(in.Text)), nil
	}
	return plugin.Text(in.Text), nil
}

func newPlugin() *plugin.Plugin {
	return &plugin.Plugin{
		Name:        "echo",
		Version:     "1.0.0",
		Description: "Returns the text it is given; a minimal example plugin.",
		Operations: []plugin.Operation{{
			Name:              "echo",
			Description:       "Return the given text unchanged (or in upper case). Use it to check that plugin tools work.",
			InputSchema:       echoSchema,
			OutputDescription: "The text, as one text block.",
			Annotations: plugin.Annotations{
				Title:       "Echo",
				ReadOnly:    plugin.Bool(true),
				Destructive: plugin.Bool(false),
				Idempotent:  plugin.Bool(true),
				OpenWorld:   plugin.Bool(false),
			},
			Handler: echo,
		}},
	}
}

func main() { plugin.Serve(newPlugin()) }
