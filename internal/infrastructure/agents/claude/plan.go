package claude

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// quiet turns off Claude's background traffic: telemetry, update checks, error reports and
// the rest of what CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC covers. A step may turn any back on
// through its env option.
var quiet = map[string]string{
	"DISABLE_TELEMETRY":                        "1",
	"DISABLE_AUTOUPDATER":                      "1",
	"DISABLE_ERROR_REPORTING":                  "1",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}

// plan builds the command line:
//
//	claude -p --output-format json [--model M] [--system-prompt S] [--append-system-prompt S]
//	       [--mcp-config <dir>/mcp.json --strict-mcp-config [--tools ""]]
//	       [--permission-mode X] [--allowedTools T…] [--resume <session>] [extra_args…] -- <prompt>
//
// The prompt goes last, after "--": --allowedTools, --tools and --mcp-config take any number of
// values and would swallow a prompt written after them, and "--" also keeps a prompt that
// starts with "-" from being read as a flag (both verified).
func plan(req ports.AgentRequest, v options.Values, dir string, _ []string) (cli.Plan, error) {
	p := cli.Plan{Args: []string{"-p", "--output-format", "json"}, Defaults: quiet, Forced: map[string]string{}}
	defaults := func(k, v string) {
		d := make(map[string]string, len(p.Defaults)+1)
		for dk, dv := range p.Defaults {
			d[dk] = dv
		}
		d[k] = v
		p.Defaults = d
	}
	if m := v.String("model"); m != "" {
		p.Args = append(p.Args, "--model", m)
	}
	if v.Has("system_prompt") {
		p.Args = append(p.Args, "--system-prompt", v.String("system_prompt"))
	}
	if v.Has("append_system_prompt") {
		p.Args = append(p.Args, "--append-system-prompt", v.String("append_system_prompt"))
	}
	if u := v.String("base_url"); u != "" {
		p.Forced["ANTHROPIC_BASE_URL"] = u
	}
	mode := v.String("permission_mode")
	allowed := append([]string(nil), v.Strings("allowed_tools")...)
	if a := req.Attach; a != nil {
		file := filepath.Join(dir, "mcp.json")
		data, escaped, err := mcpConfig(a)
		if err != nil {
			return p, err
		}
		if escaped {
			p.Forced[dollarVar] = "$"
		}
		p.Files = append(p.Files, cli.File{Path: file, Data: data})
		p.Args = append(p.Args, "--mcp-config", file, "--strict-mcp-config")
		if a.InterceptBuiltins {
			// "" removes every built-in; ENABLE_TOOL_SEARCH=false removes the deferred-tool
			// placeholder that would otherwise still be offered.
			p.Args = append(p.Args, "--tools", "")
			p.Forced["ENABLE_TOOL_SEARCH"] = "false"
			if mode == "" {
				mode = "dontAsk" // anything not granted below is refused, never prompted for
			}
		} else {
			// Claude's own tools stay; without this its tool search defers the proxy's tools
			// behind ToolSearch and the model is not shown them (verified). A step may opt back in.
			defaults("ENABLE_TOOL_SEARCH", "false")
		}
		for _, t := range a.Tools {
			allowed = append(allowed, "mcp__"+a.ServerName+"__"+t)
		}
	}
	if mode != "" {
		p.Args = append(p.Args, "--permission-mode", mode)
	}
	if len(allowed) > 0 {
		p.Args = append(p.Args, "--allowedTools")
		p.Args = append(p.Args, allowed...)
	}
	if s := req.Session; s != nil && s.ID != "" {
		p.Args = append(p.Args, "--resume", s.ID) // the session claude keeps under the step's HOME
	}
	p.Args = append(p.Args, v.Strings("extra_args")...)
	p.Args = append(p.Args, "--", req.Prompt)
	return p, nil
}

// dollarVar holds a literal "$" for escaping: Claude expands ${VAR} in --mcp-config commands
// and arguments (verified), in one pass, so "${AWF_LITERAL_DOLLAR}{X}" comes out as "${X}".
const dollarVar = "AWF_LITERAL_DOLLAR"

// mcpConfig is the --mcp-config file: the proxy as the only stdio server. The server inherits
// Claude's environment, so the file carries no env block. escaped reports whether a "${" had
// to be protected (the caller then defines dollarVar).
func mcpConfig(a *ports.ProxyAttachment) (data []byte, escaped bool, err error) {
	protect := func(s string) string {
		if !strings.Contains(s, "${") {
			return s
		}
		escaped = true
		return strings.ReplaceAll(s, "${", "${"+dollarVar+"}{")
	}
	args := make([]string, len(a.Args))
	for i, s := range a.Args {
		args[i] = protect(s)
	}
	type server struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": map[string]server{
		a.ServerName: {Type: "stdio", Command: protect(a.Command), Args: args},
	}}, "", "  ")
	if err != nil {
		return nil, false, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot encode the MCP config")
	}
	return b, escaped, nil
}
