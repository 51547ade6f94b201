package builtins

import (
	"testing"
)

// newBenchProvider is a Provider on root with an empty environment, closed when b ends.
func newBenchProvider(b *testing.B, root string) *Provider {
	b.Helper()
	p, err := New(Options{Root: root, Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	return p
}
