package codex

import "strings"

// watch stops codex when its event stream says it cannot reach its model server or was
// refused by it. Codex 0.169.0 retries a refused connection without end ("Reconnecting...
// waiting for network") and a 401 five times, each as an error event on stdout; stderr says
// nothing of it.
func watch(stderr bool, line string) string {
	if stderr || !strings.Contains(line, `"type":"error"`) {
		return ""
	}
	switch {
	case strings.Contains(line, "waiting for network"):
		return "cannot reach its model server"
	case strings.Contains(line, "401 Unauthorized"), strings.Contains(line, "403 Forbidden"):
		return "was refused by its model server"
	}
	return ""
}

// hint says what to check when codex fails.
const hint = "check options.base_url (or model_provider) and the API key in the variable options.env_key names " +
	"(CODEX_API_KEY or OPENAI_API_KEY by default), or log in once with `codex login`; run the same command by hand to see the full output"
