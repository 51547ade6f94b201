package ports

import "context"

// DiagramRenderer turns a Graphviz DOT document into an image (format "svg" or "png"). It is a
// port because drawing runs an external program the application may not start itself.
type DiagramRenderer interface {
	Render(ctx context.Context, dot string, format string) ([]byte, error)
}
