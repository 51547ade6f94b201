package opencode

import "strings"

// watch stops opencode when its log (--print-logs, on stderr) says a model request cannot
// connect: opencode 1.18.33 retries that without end and prints nothing else. A server that
// refuses it ends the run by itself with an error event.
func watch(stderr bool, line string) string {
	if stderr && strings.Contains(line, "level=ERROR") && strings.Contains(line, "Cannot connect to API") {
		return "cannot reach its model server"
	}
	return ""
}

// hint says what to check when opencode fails.
const hint = "check the provider of options.model in your opencode config (OPENCODE_CONFIG): its baseURL and its API key; " +
	"`opencode run --print-logs` shows what it tried"
