package pluginadapter

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// gatedOps is fakeOps with a scan gate holding some tools out.
type gatedOps struct {
	fakeOps
	held  map[string]string
	err   error
	asked []string
}

func (g *gatedOps) HeldOut(_ context.Context, plugin string, tools []string) (map[string]string, error) {
	g.asked = append(g.asked, plugin+":"+strings.Join(tools, ","))
	return g.held, g.err
}

func TestHeldToolsAreLeftOut(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	g := &gatedOps{fakeOps: fakeOps{ops: []ports.PluginOperation{{Name: "a", InputSchema: obj}, {Name: "b", InputSchema: obj}, {Name: "c", InputSchema: obj}}},
		held: map[string]string{"b": "held"}}
	p := New(g, "s", []string{"b", "*"})
	defs, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	if strings.Join(names, " ") != "s_a s_c" || strings.Join(g.asked, " ") != "s:b,a,c" {
		t.Fatalf("listed %v, asked %v", names, g.asked)
	}
	if _, err := p.CallTool(context.Background(), "s_b", nil); err == nil || len(g.calls) != 0 {
		t.Fatalf("a held tool was called: %v %v", err, g.calls)
	}
	if _, err := p.CallTool(context.Background(), "s_a", nil); err != nil || len(g.calls) != 1 {
		t.Fatalf("a kept tool: %v %v", err, g.calls)
	}
	g.err = errors.New("lock unreadable")
	if _, err := New(g, "s", []string{"a"}).ListTools(context.Background()); err == nil || err.Error() != "lock unreadable" {
		t.Fatalf("gate error: %v", err)
	}
}
