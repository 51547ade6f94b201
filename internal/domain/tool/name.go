package tool

import "strings"

// MaxCLIToolName is the longest tool name the agent CLIs accept. MCP allows 128 characters; the
// CLIs refuse a server whose tool names are longer than 64, so awf checks a plugin's tool names
// against this limit when a workflow is validated and again when its tools are listed.
const MaxCLIToolName = 64

// PluginToolName is the tool name of a plugin operation: <plugin>_<operation>, with every
// character the agent CLIs refuse in a tool name (anything but letters, digits, '_' and '-')
// mapped to '_'. Validation and the plugin tool adapter both name tools with it, so that what a
// workflow is checked against is what the agent is shown.
func PluginToolName(plugin, operation string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, plugin+"_"+operation)
}
