package codex

import (
	"path/filepath"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// defaultProviderID names the provider base_url defines when model_provider does not.
const defaultProviderID = "awf"

// plan builds the command line:
//
//	codex exec --json --skip-git-repo-check [--ephemeral] [--model M] [--sandbox S]
//	      -c analytics.enabled=false -c check_for_update_on_startup=false
//	      [-c developer_instructions="…"] [-c model_provider="…" [-c model_providers.<id>={…}]]
//	      [--disable plugins --disable apps -c mcp_servers.<server>.command="…"
//	       -c mcp_servers.<server>.args=[…] -c mcp_servers.<server>.default_tools_approval_mode="approve"
//	       [--disable shell_tool --disable multi_agent --disable goals --disable view_image
//	        -c web_search="disabled"]]
//	      [extra_args…] -- <prompt>
//
// and, continuing a session, the same overrides after `exec resume`, ending in
// `-- <session id> <prompt>`: resume (0.169.0) takes --json, --skip-git-repo-check, --model, -c
// and --disable but not --sandbox, so the sandbox becomes -c sandbox_mode="S". Every override
// is repeated on each turn: codex reads its settings afresh on resume, and the proxy and the
// isolation must hold on every turn.
//
// Every -c value is written as TOML: codex reads a value that fails to parse as a plain string,
// so a path with a quote in it would otherwise change meaning silently.
func plan(req ports.AgentRequest, v options.Values, dir string, _ []string) (cli.Plan, error) {
	resume := cli.Continues(req)
	p := cli.Plan{Args: []string{"exec"}, Forced: map[string]string{}}
	if resume {
		p.Args = append(p.Args, "resume")
	}
	p.Args = append(p.Args, "--json", "--skip-git-repo-check")
	a := req.Attach
	if a != nil && !cli.KeepsHome(req) {
		// Session files would only land in the private home, which is removed anyway.
		p.Args = append(p.Args, "--ephemeral")
	}
	if m := v.String("model"); m != "" {
		p.Args = append(p.Args, "--model", m)
	}
	if s := v.String("sandbox"); s != "" {
		if resume {
			p.Args = append(p.Args, "-c", "sandbox_mode="+cli.TOMLString(s))
		} else {
			p.Args = append(p.Args, "--sandbox", s)
		}
	}
	set := func(key, tomlValue string) { p.Args = append(p.Args, "-c", key+"="+tomlValue) }
	set("analytics.enabled", "false")
	set("check_for_update_on_startup", "false")
	if v.Has("system_prompt") {
		set("developer_instructions", cli.TOMLString(v.String("system_prompt")))
	}
	if err := provider(v, set); err != nil {
		return p, err
	}
	if a != nil {
		if a.Command == "" || !bareKey.MatchString(a.ServerName) {
			return p, fault.New(fault.ExecutionAgentSetup, "the proxy attachment of step %q needs a command and a server name of letters, digits, _ and - (got %q)",
				req.Step, a.ServerName)
		}
		home := filepath.Join(dir, "home")
		p.Dirs = append(p.Dirs, home)
		p.Forced["CODEX_HOME"] = home
		p.Args = append(p.Args, "--disable", "plugins", "--disable", "apps")
		srv := "mcp_servers." + a.ServerName + "."
		set(srv+"command", cli.TOMLString(a.Command))
		set(srv+"args", cli.TOMLStrings(a.Args))
		set(srv+"default_tools_approval_mode", cli.TOMLString("approve"))
		if a.InterceptBuiltins {
			for _, f := range []string{"shell_tool", "multi_agent", "goals", "view_image"} {
				p.Args = append(p.Args, "--disable", f)
			}
			set("web_search", cli.TOMLString("disabled"))
		}
	}
	p.Args = append(p.Args, v.Strings("extra_args")...)
	p.Args = append(p.Args, "--")
	if resume {
		p.Args = append(p.Args, req.Session.ID)
	}
	p.Args = append(p.Args, req.Prompt)
	return p, nil
}

// privateHome: with a proxy, codex runs with CODEX_HOME=<dir>/home, where it also keeps its
// sessions; without one it uses the user's ~/.codex, which keeps them anyway.
func privateHome(req ports.AgentRequest, _ options.Values) bool { return req.Attach != nil }

// provider selects the model provider: model_provider alone picks a built-in (or the user's);
// base_url defines one speaking the Responses API, keyed by env_key.
func provider(v options.Values, set func(key, tomlValue string)) error {
	id, base, key := v.String("model_provider"), v.String("base_url"), v.String("env_key")
	if key != "" && base == "" {
		return fault.New(fault.UserAgentInvalidOption, "option env_key of provider codex needs base_url").
			WithHint("add base_url, or drop env_key and export CODEX_API_KEY")
	}
	if base == "" {
		if id != "" {
			set("model_provider", cli.TOMLString(id))
		}
		return nil
	}
	if id == "" {
		id = defaultProviderID
	}
	if key == "" {
		key = "OPENAI_API_KEY"
	}
	set("model_provider", cli.TOMLString(id))
	set("model_providers."+id, "{name="+cli.TOMLString(id)+",base_url="+cli.TOMLString(base)+
		`,wire_api="responses",env_key=`+cli.TOMLString(key)+"}")
	return nil
}
