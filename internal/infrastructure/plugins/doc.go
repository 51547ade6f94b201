// Package plugins is awf's plugin host: it reads .awf/plugins.yaml, starts plugin programs with
// HashiCorp go-plugin over gRPC (the awf.plugin.v1 protocol of pkg/plugin), and runs their
// operations.
//
// Plugins start lazily, on the first call that needs one, within a start timeout; each runs
// once per Host and is reused by every call. Their log lines (hclog JSON on stderr, or plain
// text) are forwarded into awf's zap log under the plugin's name. A plugin that dies during a
// call fails that call at once with an error naming the plugin; the next call starts it again,
// up to a number of consecutive crashes after which calls fail with a clear message. Close
// stops every plugin; plugins run in their own process group with a parent-death signal, so
// none outlives awf even if awf itself is killed.
//
// A `type: mcp` plugin is a user's MCP server: the host prepares its process (or endpoint) and
// hands it to package tools/mcpbridge, which speaks MCP. The pins of .awf/plugins.lock are
// package pluginlock's; the host lists the tools they pin.
//
// Host implements ports.PluginRegistry (validation) and ports.OperationProvider (the plugin
// tool adapter).
package plugins
