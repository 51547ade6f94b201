package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/pkg/plugin"
)

// Example is the plugin of the package documentation. A real main ends with plugin.Serve(p);
// here the declaration is validated and the handler called directly.
func Example() {
	p := &plugin.Plugin{
		Name:    "shout",
		Version: "1.0.0",
		Operations: []plugin.Operation{{
			Name:        "upper",
			Description: "Return the text in upper case.",
			InputSchema: `{
				"type": "object",
				"properties": {"text": {"type": "string", "description": "Text to convert"}},
				"required": ["text"],
				"additionalProperties": false
			}`,
			Annotations: plugin.Annotations{ReadOnly: plugin.Bool(true), Idempotent: plugin.Bool(true)},
			Handler: func(ctx context.Context, args json.RawMessage) (plugin.Result, error) {
				var in struct {
					Text string `json:"text"`
				}
				if err := plugin.DecodeArgs(args, &in); err != nil {
					return plugin.Result{}, err
				}
				return plugin.Text(strings.ToUpper(in.Text)), nil
			},
		}},
	}
	fmt.Println(p.Validate())
	res, err := p.Operations[0].Handler(context.Background(), json.RawMessage(`{"text":"hello"}`))
	fmt.Println(res.Content[0].Text, err)
	// Output:
	// <nil>
	// HELLO <nil>
}
