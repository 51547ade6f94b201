// Package routing holds the Router: the one place every tool call of an agent step passes through.
//
// # The one-router rule (docs/design.md#tool-call-paths)
//
// A tool call reaches awf by three paths:
//
//  1. a CLI agent (claude, gemini, codex, opencode) spawns `awf mcp-serve`, which builds a Router
//     from the built-ins and the plugin adapters and serves it over stdio through pkg/mcpserver;
//  2. an OpenAI-compatible step builds a Router in-process, sends ListTools as `tools[]` and
//     dispatches every `tool_calls` entry to CallTool;
//  3. `awf call tool-read|tool-write|tool-destructive <tool>` builds a Router for one call.
//
// All three must behave the same, so everything that is not the tool's own work happens here and
// nowhere else: name-collision detection at registration, argument validation against the input
// schema before dispatch, the intent rule (Policy), and the instrumentation of each call (one
// OTel span, one zap line, one activity record). A tool registered directly on an MCP server, or
// dispatched to a provider without the Router, would silently skip all of that; never do it.
//
// # What an agent sees: Exposure
//
// A Router holds every tool of a step; an Exposure (NewExposure) is what one agent sees of it
// under the step's `mcp_proxy.intent` settings: the tools by their own names (direct mode) or
// retrieve_tools and call_tool_read / call_tool_write / call_tool_destructive (split mode), with
// the variants the step does not allow left out. Agent paths list and call through an Exposure;
// the intent rule itself is the pure domain function tool.Decide, applied by IntentPolicy to the
// tool's definition as the router holds it at call time (Router.Refresh replaces it). Refusals
// decided by the exposure before the rule runs go through Router.Refuse, so they are
// instrumented like every other call.
//
// # Why this package imports jsonschema-go
//
// The application layer may import only the domain, the OTel API and zap. Argument validation is
// the exception, on purpose: github.com/google/jsonschema-go is a pure, standard-library-only
// implementation of a specification (in the same way encoding/json is), it does no I/O (remote
// $refs are refused), and validation before dispatch is a rule of the router itself
// (docs/design.md#pitfalls: wrong-typed arguments were silently ignored). Hiding it behind a port
// would let a caller build a router that skips validation, which is exactly the bug the rule
// prevents. .go-arch-lint.yml lists it (vendor "jsonschema") among the few libraries the
// application layer may use.
package routing
