package mcpserve

import (
	"path/filepath"

	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/tools/builtins"
)

// sandboxOptions are the Bash sandbox settings of cfg (docs/decisions/0012-kernel-sandbox.md).
// A step with a network allow list gets the egress proxy, whose connections rec records.
func sandboxOptions(cfg toolset.Spec, rec *egressRecorder) *builtins.SandboxOptions {
	sb := cfg.Sandbox
	if sb.Mode == "" {
		sb = toolset.DefaultSandbox()
	}
	o := &builtins.SandboxOptions{
		Settings: sandbox.Settings{Mode: sb.Mode, Network: sb.Network, Writable: sb.Writable, Readable: sb.Readable},
		Allow:    cfg.Intent.Allow,
	}
	if e := sb.Egress; e != nil {
		o.Settings.Network = false
		o.Settings.Egress = &sandbox.Egress{Allow: e.Allow, Deny: e.Deny}
		if rec != nil {
			o.EgressRecord = rec.record
		}
	}
	return o
}

// protectedFiles are the paths no tool may change besides .awf/ and .git's hooks and config:
// the run's private files for this proxy (config and ready file live in one private
// directory), its activity and log files, and the commands of the declared plugins.
func protectedFiles(cfg toolset.Spec) []string {
	var out []string
	for _, f := range []string{cfg.ActivityFile, cfg.LogFile} {
		if f != "" {
			out = append(out, f)
		}
	}
	if cfg.ReadyFile != "" {
		out = append(out, filepath.Dir(cfg.ReadyFile))
	}
	if cfg.PluginsFile != "" {
		out = append(out, cfg.PluginsFile)
		out = append(out, cfg.PluginCommands...)
	}
	return out
}
