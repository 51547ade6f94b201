// Package mcpbridge is awf's MCP client for a user's MCP server bridged as a `type: mcp`
// plugin: it starts the server (over stdio, or reaches it over Streamable HTTP), lists its
// tools with their effective annotations and pins, calls them with progress, cancellation and
// timeouts, and restarts a server that died. The go-sdk's client session is the reference
// path and is complete alone; an Accelerator (package mcpbridge/rawcall) may send tools/call
// over stdio beside it.
//
// The plugin host decides what to start (plugins.yaml, the environment, network isolation,
// the process group) and hands over a Launch; this package speaks MCP.
package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// ErrClosed is what a server stopped by Stop answers: the host turns it into its own
// "plugin was stopped" fault.
var ErrClosed = errors.New("the bridged MCP server was stopped")

// Launch is one start of a server as the host prepares it: a command ready to start (its
// environment, directory, process attributes and stderr set) for stdio, else the URL and
// headers of a Streamable HTTP endpoint.
type Launch struct {
	Cmd *exec.Cmd
	// Stderr holds the tail of the command's stderr, quoted by a failed start; may be nil.
	Stderr fmt.Stringer
	URL    string
	// Headers are Name=Value pairs, expanded, added to every HTTP request.
	Headers []string
}

// Config is one bridged server.
type Config struct {
	// Name is the plugin's name; File the plugins.yaml that declares it and Pos where, for
	// messages and hints. What names the server (its command or URL) in start errors.
	Name, File, What string
	Pos              fault.Position
	// StartupTimeout bounds start and initialize; CallTimeout each tool call.
	StartupTimeout, CallTimeout time.Duration
	// Annotations are the user's overrides by tool name; they win over the server's.
	Annotations map[string]tool.Annotations
	// MaxCrashes is how many failed starts or crashes in a row stop the restarts.
	MaxCrashes int
	Logger     *zap.Logger
	// Launch prepares each start; its error is the start's.
	Launch func() (Launch, error)
	// KillGroup kills what is left of a stdio server's process group once it is stopped
	// (npx leaves grandchildren); nil leaves that to the server.
	KillGroup func(pid int)
	// Accelerator, when set, makes the accelerator of each stdio connection; nil calls
	// through the go-sdk's client alone.
	Accelerator NewAccelerator
}

// Accelerator sends tools/call over one stdio connection beside the go-sdk's client, which
// keeps the session (initialize, tools/list, ping, notifications). The connection shows it
// every request the SDK writes and, first, every line the server writes; anything it does not
// claim goes to the SDK. Its contract is the reference path's: the same result for the same
// reply (FromCallResult), the same errors for the same failures.
type Accelerator interface {
	// Observe sees each request the SDK writes, before it is written.
	Observe(req *jsonrpc.Request)
	// Take reports whether line answered one of the accelerator's calls (then it is consumed).
	Take(line []byte) bool
	// Fail ends the calls still waiting, and refuses later ones: the connection is gone.
	Fail(err error)
	// Ready reports whether Call may be used: the session is known.
	Ready() bool
	// Call runs one tools/call; a call that ctx ends is cancelled upstream.
	Call(ctx context.Context, name string, args json.RawMessage, progressToken string) (tool.Result, error)
}

// NewAccelerator makes the accelerator of one connection; write sends one complete line.
type NewAccelerator func(write func(line []byte) error) Accelerator
