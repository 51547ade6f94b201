package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// operationName is what an operation may be called; with the plugin name in front it must still
// be a valid MCP tool name.
var operationName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// Validate reports every problem of the declaration at once: names, duplicates, missing
// handlers and input schemas that are not JSON objects with "type": "object". Serve refuses to
// start a plugin that fails it, so an author sees the mistake when running the plugin's tests
// rather than when an agent calls it.
func (p *Plugin) Validate() error {
	if p == nil {
		return errors.New("plugin: nil Plugin")
	}
	var problems []string
	seen := map[string]bool{}
	for i, op := range p.Operations {
		label := fmt.Sprintf("operation #%d %q", i+1, op.Name)
		switch {
		case !operationName.MatchString(op.Name):
			problems = append(problems, label+": name must be 1-64 letters, digits, '_' or '-', starting with a letter or digit")
		case seen[op.Name]:
			problems = append(problems, label+": name is used twice")
		}
		seen[op.Name] = true
		if op.Handler == nil {
			problems = append(problems, label+": Handler is nil")
		}
		if msg := checkSchema(op.InputSchema); msg != "" {
			problems = append(problems, label+": InputSchema "+msg)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("plugin %q is declared wrongly:\n  %s", p.Name, strings.Join(problems, "\n  "))
	}
	return nil
}

// checkSchema returns why schema cannot be an input schema, or "".
func checkSchema(schema string) string {
	if strings.TrimSpace(schema) == "" {
		return ""
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(schema), &doc); err != nil {
		return fmt.Sprintf("is not a JSON object: %v", err)
	}
	var typ string
	if err := json.Unmarshal(doc["type"], &typ); err != nil || typ != "object" {
		return `must have "type": "object" at the top level, as MCP requires`
	}
	return ""
}
