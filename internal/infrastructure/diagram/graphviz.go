package diagram

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// DefaultRenderTimeout bounds one Graphviz run; a huge or pathological graph must not hang awf.
const DefaultRenderTimeout = 30 * time.Second

// Graphviz renders DOT through the `dot` program found on PATH (looked up at each call, so the
// PATH in force decides), run directly with the DOT on stdin, never through a shell.
type Graphviz struct {
	// Timeout bounds one run; zero means DefaultRenderTimeout.
	Timeout time.Duration
	// LookPath finds the program; nil means exec.LookPath.
	LookPath func(string) (string, error)
}

// Render returns the image of dot in format "svg" or "png".
func (g Graphviz) Render(ctx context.Context, dot, format string) ([]byte, error) {
	if format != "svg" && format != "png" {
		return nil, fault.New(fault.UserCLIInvalidFormat, "graphviz cannot draw format %q", format).WithHint("use svg or png")
	}
	look := g.LookPath
	if look == nil {
		look = exec.LookPath
	}
	bin, err := look("dot")
	if err != nil {
		return nil, fault.New(fault.SystemDiagramNoGraphviz, "drawing %s needs Graphviz's `dot` program, which is not on PATH", strings.ToUpper(format)).
			WithHint("install the Debian package `graphviz` (apt-get install graphviz), or write `-o diagram.dot` or `-o diagram.mmd` instead")
	}
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultRenderTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-T"+format)
	cmd.Stdin = strings.NewReader(dot)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fault.New(fault.SystemDiagramRender, "graphviz did not finish within %s", timeout)
		}
		return nil, fault.New(fault.SystemDiagramRender, "graphviz failed: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), nil
}
