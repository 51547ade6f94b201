package gemini

import "strings"

// builtinNames are Gemini CLI 0.61.0's built-in tool names and legacy aliases. Gemini drops an
// MCP tool whose bare name equals an excluded built-in (in intercept mode every built-in is
// excluded), so a proxy tool with one of these names would never reach the model.
var builtinNames = map[string]bool{
	"glob": true, "grep_search": true, "search_file_content": true, "list_directory": true,
	"read_file": true, "read_many_files": true, "write_file": true, "replace": true,
	"run_shell_command": true, "google_web_search": true, "web_fetch": true, "write_todos": true,
	"activate_skill": true, "ask_user": true, "get_internal_docs": true, "enter_plan_mode": true,
	"exit_plan_mode": true, "update_topic": true, "complete_task": true, "invoke_agent": true,
	"read_mcp_resource": true, "list_mcp_resources": true, "take_snapshot": true,
	"tracker_create_task": true, "tracker_update_task": true, "tracker_get_task": true,
	"tracker_list_tasks": true, "tracker_add_dependency": true, "tracker_visualize": true,
}

// ShadowedTools returns the tool names, in order, that Gemini CLI would silently drop because
// they equal one of its built-in names. awf's own tools (Read, Write, Edit, Bash, Glob, Grep,
// retrieve_tools, call_tool_*) are not among them; a plugin operation can be (plugin "web",
// operation "fetch" → web_fetch).
func ShadowedTools(tools []string) []string {
	var out []string
	for _, t := range tools {
		if builtinNames[t] {
			out = append(out, t)
		}
	}
	return out
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
