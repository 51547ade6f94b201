package gemini

import (
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// needsDir: a step without a proxy still needs private files for a system prompt, and a
// private home for base_url or auth_type (the auth choice lives in settings).
func needsDir(v options.Values) bool {
	return v.Has("system_prompt") || v.Has("base_url") || v.Has("auth_type")
}

// usesPrivateHome: with a proxy, base_url or auth_type gemini runs with GEMINI_CLI_HOME=<dir>/home,
// where it also keeps its sessions; otherwise it uses the user's ~/.gemini.
func usesPrivateHome(req ports.AgentRequest, v options.Values) bool {
	return req.Attach != nil || v.Has("base_url") || v.Has("auth_type")
}

// plan builds the command line:
//
//	gemini --output-format json --skip-trust [--model M] [--approval-mode X]
//	       [--allowed-mcp-server-names=<server> [--policy=<dir>/policy.toml]] [--resume=<session>]
//	       [extra_args…] --prompt=<prompt>
//
// Every value is attached with "=" so that array options (--allowed-mcp-server-names,
// --policy) cannot swallow a following word and a prompt starting with "-" stays a value.
// --skip-trust is needed headless whatever the mode: without it the CLI exits 55.
func plan(req ports.AgentRequest, v options.Values, dir string, base []string) (cli.Plan, error) {
	p := cli.Plan{Args: []string{"--output-format", "json", "--skip-trust"}, Forced: map[string]string{}}
	if m := v.String("model"); m != "" {
		p.Args = append(p.Args, "--model="+m)
	}
	if m := v.String("approval_mode"); m != "" {
		p.Args = append(p.Args, "--approval-mode="+m)
	}
	if u := v.String("base_url"); u != "" {
		p.Forced["GOOGLE_GEMINI_BASE_URL"] = u
	}
	if v.Has("system_prompt") {
		file := filepath.Join(dir, "system.md")
		p.Files = append(p.Files, cli.File{Path: file, Data: []byte(v.String("system_prompt"))})
		p.Forced["GEMINI_SYSTEM_MD"] = file
	}
	a := req.Attach
	if a != nil {
		if bad := ShadowedTools(a.Tools); len(bad) > 0 {
			return p, fault.New(fault.UserMCPProxyShadowedByBuiltin, "step %q: gemini drops MCP tools named like its built-ins, so these would never reach the model: %s",
				req.Step, joinNames(bad)).
				WithHint("expose the plugin operation under another name, or run this step on another provider")
		}
	}
	if usesPrivateHome(req, v) {
		home := filepath.Join(dir, "home")
		files, err := privateHome(home, a, v, cli.BuildEnv(base, nil, v.Env("env"), p.Forced, nil))
		if err != nil {
			return p, err
		}
		p.Files = append(p.Files, files...)
		p.Forced["GEMINI_CLI_HOME"] = home
		if a != nil && strings.Contains(a.Command+strings.Join(a.Args, ""), "$") {
			p.Forced[dollarVar] = "$"
		}
	}
	if a != nil {
		p.Args = append(p.Args, "--allowed-mcp-server-names="+a.ServerName)
		if a.InterceptBuiltins {
			file := filepath.Join(dir, "policy.toml")
			p.Files = append(p.Files, cli.File{Path: file, Data: policy(a.ServerName)})
			p.Args = append(p.Args, "--policy="+file)
		}
	}
	if cli.Continues(req) {
		// Headless gemini saves every session under its home (.gemini/tmp/<project>/chats) and
		// resumes one by its UUID; the home is kept for the run when the step keeps its session.
		p.Args = append(p.Args, "--resume="+req.Session.ID)
	}
	p.Args = append(p.Args, v.Strings("extra_args")...)
	p.Args = append(p.Args, "--prompt="+req.Prompt)
	return p, nil
}

// policy denies every tool but the proxy server's. Policy files passed with --policy sit in the
// user tier; priorities are within it (0–999).
func policy(server string) []byte {
	return []byte(`# Written by awf for one step: only the MCP proxy's tools may run.
[[rule]]
toolName = "*"
decision = "deny"
priority = 900

[[rule]]
toolName = "*"
mcpName = ` + cli.TOMLString(server) + `
decision = "allow"
priority = 950
`)
}
