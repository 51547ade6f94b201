package gemini

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// credentialFiles are what "Login with Google" keeps in the gemini directory. They are copied,
// never linked: a token refresh during the step then stays in the private copy.
var credentialFiles = []string{"oauth_creds.json", "google_accounts.json"}

// userGeminiDir is where the user's own CLI keeps its settings: $GEMINI_CLI_HOME/.gemini when
// they set one, else $HOME/.gemini.
func userGeminiDir(env []string) string {
	if h := cli.LookupEnv(env, "GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	if h := cli.LookupEnv(env, "HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	return ""
}

// privateHome returns the files of the private GEMINI_CLI_HOME: settings.json built on the
// user's settings, and copies of the login credentials. env is the CLI's environment.
func privateHome(home string, a *ports.ProxyAttachment, v options.Values, env []string) ([]cli.File, error) {
	src := userGeminiDir(env)
	settings, err := readSettings(src)
	if err != nil {
		return nil, err
	}
	// The user's MCP servers and their allow/exclude lists stay out: the proxy is the only
	// server (and an mcp.excluded entry could otherwise name it).
	delete(settings, "mcpServers")
	delete(settings, "mcp")
	if a != nil {
		args := make([]string, len(a.Args))
		for i, s := range a.Args {
			args[i] = protectDollar(s)
		}
		settings["mcpServers"] = map[string]any{a.ServerName: map[string]any{
			"command": protectDollar(a.Command), "args": args, "trust": true,
		}}
	}
	set(settings, false, "privacy", "usageStatisticsEnabled")
	set(settings, false, "telemetry", "enabled")
	set(settings, false, "general", "enableAutoUpdate")
	set(settings, false, "general", "enableAutoUpdateNotification")
	if t := authType(settings, v, env); t != "" {
		set(settings, t, "security", "auth", "selectedType")
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot encode gemini's private settings")
	}
	files := []cli.File{{Path: filepath.Join(home, ".gemini", "settings.json"), Data: data}}
	for _, name := range credentialFiles {
		if src == "" {
			break
		}
		b, err := os.ReadFile(filepath.Join(src, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot read gemini's %s", filepath.Join(src, name))
		}
		files = append(files, cli.File{Path: filepath.Join(home, ".gemini", name), Data: b})
	}
	return files, nil
}

// readSettings reads the user's settings.json (JSON with comments); a missing file is empty.
func readSettings(dir string) (map[string]any, error) {
	if dir == "" {
		return map[string]any{}, nil
	}
	return cli.ReadUserJSONC(filepath.Join(dir, "settings.json"), "your gemini settings")
}

// authType decides security.auth.selectedType: the auth_type option; else the user's choice
// stays; else, with a base URL and an API key, gemini-api-key, because the CLI would otherwise
// pick "gateway" and refuse to run headless. "" leaves the CLI to infer from the environment.
func authType(settings map[string]any, v options.Values, env []string) string {
	if t := v.String("auth_type"); t != "" {
		return t
	}
	if sec, _ := settings["security"].(map[string]any); sec != nil {
		if auth, _ := sec["auth"].(map[string]any); auth != nil && auth["selectedType"] != nil {
			return ""
		}
	}
	if cli.LookupEnv(env, "GOOGLE_GEMINI_BASE_URL") != "" && cli.LookupEnv(env, "GEMINI_API_KEY") != "" {
		return "gemini-api-key"
	}
	return ""
}

// set stores value at the nested path, creating (or replacing non-object) parents.
func set(m map[string]any, value any, path ...string) {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = value
}

// dollarVar holds a literal "$": Gemini expands $VAR and ${VAR} in every settings string
// (verified with the proxy's arguments), in one pass and with no escape of its own, so each "$"
// of a command or argument is written as ${AWF_LITERAL_DOLLAR}.
const dollarVar = "AWF_LITERAL_DOLLAR"

func protectDollar(s string) string { return strings.ReplaceAll(s, "$", "${"+dollarVar+"}") }
