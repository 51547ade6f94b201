// Package ports declares the interfaces the application needs from the outside world. Adapters in
// internal/infrastructure implement them; cmd/awf wires one to the other.
package ports

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// ToolProvider serves a set of tools: the built-ins, or one plugin's operations. The router
// aggregates providers. CallTool returns an error only when the provider itself failed (a plugin
// crashed); a tool that ran and failed returns a Result with IsError set.
type ToolProvider interface {
	ListTools(ctx context.Context) ([]tool.Definition, error)
	CallTool(ctx context.Context, name string, args json.RawMessage) (tool.Result, error)
	Close() error
}

// ActivitySink stores activity records. Append must be safe for concurrent use and for several
// processes appending to the same place.
type ActivitySink interface {
	Append(ctx context.Context, r activity.Record) error
}

// ActivitySource reads activity records back.
type ActivitySource interface {
	List(ctx context.Context, f activity.Filter) ([]activity.Record, error)
}
