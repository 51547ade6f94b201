// Package fakemodel is a scripted model API for end-to-end tests of the real agent CLIs (claude,
// codex, gemini, opencode). One httptest server speaks the four dialects those CLIs use, so a test
// can point any of them at it with its base-URL setting and watch what the CLI advertises to the
// model and what it sends back:
//
//   - Anthropic Messages (claude): POST /v1/messages, SSE or JSON; POST /v1/messages/count_tokens.
//   - OpenAI Responses (codex): POST /v1/responses, SSE; GET /v1/models.
//   - Gemini (gemini): POST /v1beta/models/{m}:generateContent, :streamGenerateContent?alt=sse,
//     :countTokens; GET /v1beta/models.
//   - OpenAI Chat Completions (opencode): POST /v1/chat/completions, SSE or JSON; GET /v1/models.
//
// Any other path answers 404 and is listed by [Server.SideRequests], so a CLI that starts probing
// something new shows up in the test output instead of hanging.
//
// # Decisions are stateless
//
// CLIs send side requests (titles, routing, next-speaker checks, quota probes) besides the main
// conversation, and some retry. The fake therefore decides from each request alone, never from
// what it answered before (see [Script]): the conversation history in the request says which
// wanted tools were already called, and the tools array says which can be called now.
//
// # Tool-name matching
//
// A wanted tool "Read" matches an offered tool named exactly "Read" or ending in "_Read" after a
// non-empty prefix: mcp__awf__Read (claude), mcp_awf_Read (gemini), awf_Read (opencode), and
// codex's namespaced form mcp__awf/Read (see [Request.OfferedTools]). Matching is case-sensitive,
// so opencode's own "read" or gemini's "read_file" never match. When both a bare and a prefixed
// name are offered, the prefixed one (the proxy's) wins over the bare one (a CLI built-in).
//
// # Refused calls
//
// All four CLIs reject a call to a tool they did not offer before it reaches any MCP server
// (claude: "No such tool available", codex: "unsupported call", gemini: "Tool … not found",
// opencode: "unavailable tool 'invalid'"), so a tool hidden by intent.allow is never recorded by
// awf even when forced ([ToolCall.Force]). A refusal that awf records needs an offered tool that
// awf refuses at call time, e.g. with intent.split and allow [read]: call_tool_read with
// {"name": "Bash", …}.
//
// # Tool results
//
// CLIs reshape tool results (codex prefixes "Wall time: … Output:", gemini wraps them in
// <untrusted_context>, some send JSON objects): tests should search [Server.ToolResults] for a
// unique marker rather than compare exactly. The final answer quotes every result it received, so
// the marker also reaches the CLI's final output.
package fakemodel
