// Package openai is the openai_compatible agent provider: awf itself is the HTTP client of an
// OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server, …) and
// runs the agent loop in-process (docs/design.md#tool-call-paths, path 2). Because no agent CLI is involved, the model
// can only act through the tools awf offers in the request, so isolation is guaranteed: every
// tool call goes through the step's ports.ToolSession (the one router), which checks, traces,
// logs and records it.
//
// One Run is one step: POST {base_url}/chat/completions with stream: true and the session's
// tools, assemble the streamed content and tool-call deltas, answer each tool call with one
// role: tool message, and repeat until the model answers without tool calls. A Provider holds
// configuration only, so one value can serve any number of steps, concurrently.
package openai
