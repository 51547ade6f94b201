package main

import (
	"os"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/egress"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

// pluginsNoNetwork says whether the plugins started for a step run without network: the step
// says network: false and its sandbox applies (mode required, or auto where the kernel can
// enforce it; mode auto elsewhere runs as before with the step's warning, as Bash does).
func pluginsNoNetwork(spec toolset.Spec) bool {
	sb := spec.Sandbox
	if sb.Mode == "" || sb.Network || sb.Mode == sandbox.ModeOff {
		return false
	}
	if sb.Mode == sandbox.ModeRequired {
		return true
	}
	self, err := os.Executable()
	return err == nil && sandbox.Probe(self).Enforced
}

// stepPluginProviders are the plugin tools of an in-process step (`awf run`). The run's plugin
// host starts each plugin once, with network; a step without network gets plugin processes of
// its own instead, started in network namespaces and stopped with the step's router, since a
// process already running cannot be moved out of its network.
func stepPluginProviders(host *plugins.Host, spec toolset.Spec, logger *zap.Logger) []ports.ToolProvider {
	if len(spec.PluginTools) > 0 && pluginsNoNetwork(spec) {
		return pluginProviders(spec, logger)
	}
	return pluginadapter.Providers(host, spec.PluginTools)
}

// remoteAllowed is, for a step with a network allow list, whether it covers a url: MCP server
// (docs/decisions/0028-egress-proxy.md); nil for any other step.
func remoteAllowed(spec toolset.Spec) func(string) bool {
	e := spec.Sandbox.Egress
	if e == nil {
		return nil
	}
	rules, errs := egress.Parse(e.Allow, e.Deny)
	if len(errs) > 0 {
		return nil
	}
	return func(rawURL string) bool {
		h, ok := egress.HostOfURL(rawURL)
		return ok && rules.Covers(h)
	}
}
