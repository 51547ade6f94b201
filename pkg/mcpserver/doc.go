// Package mcpserver serves tools to an MCP client over stdio (newline-
// delimited JSON-RPC 2.0), on top of the official go-sdk, which does the
// protocol itself: initialize and version negotiation, tools/list,
// tools/call, cancellation.
//
// It exists because the SDK's stdio transport, used as is, fails in ways an
// agent CLI notices:
//
//   - One malformed line ends the session. The SDK decodes the input as a
//     stream of JSON values and closes the connection on the first one it
//     cannot use, so a stray log line, a truncated write or a batch array
//     takes every tool away from the agent. Here the input is read line by
//     line (each line bounded by Options.MaxLineBytes, longer lines are
//     skipped without being buffered) and each line is judged on its own: a
//     line that is not JSON is answered with -32700 Parse error, valid JSON
//     that is not one JSON-RPC 2.0 message with -32600 Invalid Request
//     (carrying the request's id when it can be read), blank lines are
//     ignored, and only well-formed messages reach the SDK. Answers from this
//     filter and from the SDK are written as whole lines under one lock, so
//     they never interleave. Errors the SDK would send with code 0 get
//     -32603, so every error carries a valid JSON-RPC code; unknown methods
//     get -32601.
//
//   - A long tool call kept the server alive after its client left. Serve
//     returns when its input reaches EOF (the client closed stdin or died) or
//     its context is cancelled (SIGTERM), and before returning it cancels the
//     context of every call in flight and waits for the handlers, at most
//     Options.ShutdownTimeout. Handlers that start processes must kill them
//     when their context is done.
//
//   - A client that wrote its requests and closed its input at once got some
//     answers, none or all (the SDK ends the session on EOF and drops what it
//     has not written yet). Serve answers the requests read before the EOF,
//     other than tool calls, which the EOF cancels, before it ends.
//
// It also recovers a panicking handler into an error result, keeps tool calls
// concurrent (a slow call does not hold up the others), and registers tools
// with raw JSON arguments: the SDK does not validate them, the handler does.
//
// The SDK's own path is complete by itself: with the zero Options every message goes through
// the SDK. Options.Accelerators switches on shortcuts beside it, each in a package of its own
// under internal/ and each answering the SDK's bytes (the transcripts in testdata pin them, and
// the tests run once with every accelerator off and once with every one on). AccelDirect runs
// an ordinary tools/call (an added tool, an initialized session, no progress token, plain
// params) from the input reader straight to its handler, on workers kept for the session: the
// SDK's own path decodes each call's params and per-request _meta several times over with fresh
// 32 KiB buffers and encodes the result three times. If the SDK linked no longer answers as the
// shortcut writes, the server logs an error and serves through the SDK. docs/notes/go-sdk-workarounds.md
// describes what the SDK makes this package work around. On Linux, a stdin that is a pipe or a
// socket is read through the runtime's poller rather than by a thread blocked in read(2).
//
// The package is public and has its own small types: it imports nothing from
// awf's internal packages.
//
// # Usage
//
//	srv := mcpserver.New(mcpserver.Options{Name: "my-tools", Version: "1.0.0", Logger: logger, Accelerators: mcpserver.AccelAll})
//	err := srv.AddTool(mcpserver.Tool{
//		Name:        "greet",
//		Description: "Greets someone by name.",
//		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`),
//		Annotations: &mcpserver.Annotations{ReadOnlyHint: &yes},
//	}, func(ctx context.Context, args json.RawMessage) (*mcpserver.Result, error) {
//		// decode and validate args, do the work, honour ctx
//		return &mcpserver.Result{Content: []mcpserver.Content{{Type: "text", Text: "Hello"}}}, nil
//	})
//	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
//	defer stop()
//	err = srv.ServeStdio(ctx)
//
// Nothing else may write to stdout while ServeStdio runs: it carries the
// protocol. Send logs to stderr or a file.
package mcpserver
