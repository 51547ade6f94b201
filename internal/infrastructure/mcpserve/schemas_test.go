package mcpserve

import (
	"context"
	"testing"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// The built-ins promise routing.VerifiedSchemas: their schemas are compiled on first use, so
// this is where a schema that cannot be compiled is caught, for every variant Bash is offered as.
func TestBuiltinSchemasCompile(t *testing.T) {
	for _, allow := range [][]tool.Variant{nil, {tool.VariantRead}, {tool.VariantRead, tool.VariantWrite}} {
		for _, mode := range []string{"off", "auto"} {
			spec := toolset.Spec{Root: t.TempDir(), Builtins: true, Intent: toolset.Intent{Allow: allow}, Sandbox: toolset.Sandbox{Mode: mode}}
			r, err := Build(context.Background(), spec, Deps{Logger: zap.NewNop()})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.ListTools()) != 6 {
				t.Fatalf("want the six built-ins, got %d", len(r.ListTools()))
			}
			if err := r.CompileSchemas(); err != nil {
				t.Fatalf("allow %v, sandbox %s: %v", allow, mode, err)
			}
			_ = r.Close()
		}
	}
}
