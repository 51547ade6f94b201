package opencode

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// quiet keeps opencode off the network for anything but the model; a step may turn any back
// on through its env option.
var quiet = map[string]string{
	"OPENCODE_DISABLE_AUTOUPDATE":      "1",
	"OPENCODE_DISABLE_MODELS_FETCH":    "1",
	"OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
	"OPENCODE_DISABLE_LSP_DOWNLOAD":    "1",
	"OPENCODE_DISABLE_SHARE":           "1",
}

// builtinTools are opencode 1.18.33's built-in tool and permission names. Each is denied by
// name with intercept_builtins, because a project opencode.json naming one would otherwise win
// over "*" (verified).
var builtinTools = []string{
	"bash", "read", "write", "edit", "patch", "apply_patch", "multiedit", "glob", "grep", "list", "lsp",
	"task", "skill", "todowrite", "todoread", "webfetch", "websearch", "codesearch", "question",
	"external_directory", "plan_enter", "plan_exit",
}

// needsDir: a system prompt needs its file even without a proxy.
func needsDir(v options.Values) bool { return v.Has("system_prompt") }

// plan builds the command line and, with a proxy or a system prompt, the private config:
//
//	opencode run --format json --print-logs --log-level WARN [--model P/M] [--agent A] [extra_args…] -- <prompt>
//
// --print-logs puts opencode's warnings and errors on stderr: without it a model server it
// cannot reach leaves stderr empty while it retries for ever, and watch has nothing to read.
//
//	OPENCODE_CONFIG=<dir>/opencode.json [OPENCODE_PERMISSION=<the same permission set>]
func plan(req ports.AgentRequest, v options.Values, dir string, base []string) (cli.Plan, error) {
	p := cli.Plan{Args: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN"}, Defaults: quiet, Forced: map[string]string{}}
	if m := v.String("model"); m != "" {
		p.Args = append(p.Args, "--model", m)
	}
	if a := v.String("agent"); a != "" {
		p.Args = append(p.Args, "--agent", a)
	}
	a := req.Attach
	if a != nil || v.Has("system_prompt") {
		env := cli.BuildEnv(base, nil, v.Env("env"), nil, nil)
		cfg, err := startingConfig(cli.LookupEnv(env, "OPENCODE_CONFIG"))
		if err != nil {
			return p, err
		}
		if v.Has("system_prompt") {
			file := filepath.Join(dir, "system-prompt.md")
			p.Files = append(p.Files, cli.File{Path: file, Data: []byte(v.String("system_prompt"))})
			cfg["instructions"] = append(asList(cfg["instructions"]), file)
		}
		if a != nil {
			servers, _ := cfg["mcp"].(map[string]any)
			if servers == nil {
				servers = map[string]any{}
			}
			command := make([]string, 0, len(a.Args)+1)
			for _, s := range append([]string{a.Command}, a.Args...) {
				if strings.Contains(s, "{env:") || strings.Contains(s, "{file:") {
					p.Forced[braceVar] = "{"
				}
				command = append(command, protectBraces(s))
			}
			servers[a.ServerName] = map[string]any{"type": "local", "command": command, "enabled": true}
			cfg["mcp"] = servers
			if a.InterceptBuiltins {
				perm := isolating(a.ServerName)
				cfg["permission"] = perm
				p.Forced["OPENCODE_PERMISSION"] = string(perm)
			} else {
				cfg["permission"] = granting(cfg["permission"], a.ServerName)
			}
		}
		if _, ok := cfg["$schema"]; !ok {
			cfg["$schema"] = "https://opencode.ai/config.json"
		}
		data, err := json.MarshalIndent(cfg, "", "  ")
		if err != nil {
			return p, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot encode opencode's private config")
		}
		file := filepath.Join(dir, "opencode.json")
		p.Files = append(p.Files, cli.File{Path: file, Data: data})
		p.Forced["OPENCODE_CONFIG"] = file
	}
	if s := req.Session; s != nil && s.ID != "" {
		p.Args = append(p.Args, "--session", s.ID) // the session opencode keeps under the step's HOME
	}
	p.Args = append(p.Args, v.Strings("extra_args")...)
	p.Args = append(p.Args, "--", req.Prompt)
	return p, nil
}

// isolating is the intercept permission set as ordered JSON: "*" first, each built-in, then
// the proxy's pattern last, in case the CLI gives order a meaning.
func isolating(server string) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"*":"deny"`)
	for _, t := range builtinTools {
		b.WriteString(`,"` + t + `":"deny"`)
	}
	key, _ := json.Marshal(server + "_*")
	b.WriteString("," + string(key) + `:"allow"}`)
	return b.Bytes()
}

// granting adds an allow for the proxy's tools to the user's permission setting, so a
// restrictive default ("*": "ask", which a headless run refuses) cannot silently cut the proxy
// off while the CLI keeps its own tools. A setting written as one word for every tool becomes
// that word for "*".
func granting(existing any, server string) map[string]any {
	perm := map[string]any{}
	switch t := existing.(type) {
	case map[string]any:
		for k, v := range t {
			perm[k] = v
		}
	case string:
		perm["*"] = t
	}
	perm[server+"_*"] = "allow"
	return perm
}

// startingConfig is the content of the config file the user named in OPENCODE_CONFIG (read,
// never written), or an empty config. The private file replaces it in the variable, so its
// settings must come along.
func startingConfig(path string) (map[string]any, error) {
	if path == "" {
		return map[string]any{}, nil
	}
	return cli.ReadUserJSONC(path, "your OPENCODE_CONFIG file")
}

// braceVar holds a literal "{": opencode replaces {env:VAR} and {file:path} in its config
// (verified with the proxy's arguments), in one pass, so "{env:AWF_LITERAL_BRACE}env:X}"
// comes out as "{env:X}".
const braceVar = "AWF_LITERAL_BRACE"

func protectBraces(s string) string {
	s = strings.ReplaceAll(s, "{env:", "{env:"+braceVar+"}env:")
	return strings.ReplaceAll(s, "{file:", "{env:"+braceVar+"}file:")
}

func asList(v any) []any {
	switch t := v.(type) {
	case []any:
		return t
	case string:
		if strings.TrimSpace(t) != "" {
			return []any{t}
		}
	}
	return []any{}
}
