package run

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestCachedTemplatesTakeEachScope: a cached shell template reads the scope of each render, in
// the namespace spellings too, also when renders run at once.
func TestCachedTemplatesTakeEachScope(t *testing.T) {
	text := `echo {{.inputs.who}} {{inputs.who}} "{{workflow.name}}"`
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			who := fmt.Sprintf("w%d", i)
			scope := NewScope(map[string]any{"who": who}, nil, WorkflowInfo{Name: "n" + who})
			cmd, err := renderCommand("s.command", text, scope, fault.Position{})
			want := []string{"AWF_V_1=" + who, "AWF_V_2=" + who, "AWF_V_3=n" + who}
			if err != nil || strings.Join(cmd.Env, " ") != strings.Join(want, " ") {
				errs <- fmt.Errorf("%s: %q, %v", who, cmd.Env, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkRenderCommand renders a 20-placeholder command, as a step does at each attempt.
func BenchmarkRenderCommand(b *testing.B) {
	inputs := map[string]any{}
	var text strings.Builder
	for i := range 20 {
		name := fmt.Sprintf("in%d", i)
		inputs[name] = fmt.Sprintf(`value %d with "quotes" and $(stuff)`, i)
		fmt.Fprintf(&text, []string{"echo {{.inputs.%s}}\n", "echo \"x {{.inputs.%s}}\"\n", "echo 'y {{.inputs.%s}}'\n", "printf '%%s' $(echo {{.inputs.%s}}) | tr a b\n"}[i%4], name)
	}
	scope := NewScope(inputs, map[string]string{"HOME": "/h", "PATH": "/bin"}, WorkflowInfo{Name: "bench"})
	b.ReportAllocs()
	for b.Loop() {
		if cmd, err := renderCommand("s.command", text.String(), scope, fault.Position{}); err != nil || len(cmd.Env) != 20 {
			b.Fatal(err)
		}
	}
}

// TestRenderNumbers: a templated max_iterations takes numbers as data; any other value, such
// as expression text, is refused before it could be evaluated.
func TestRenderNumbers(t *testing.T) {
	tests := []struct {
		n, want, err string
	}{
		{"9", "9 / 3", ""}, {" -2 ", "-2 / 3", ""}, {"1.5", "1.5 / 3", ""},
		{"int(env.X)", "", "not a number"}, {"1e3", "", "not a number"}, {"NaN", "", "not a number"}, {"9 + inputs.m", "", "not a number"},
	}
	for _, tt := range tests {
		scope := NewScope(map[string]any{"n": tt.n}, nil, WorkflowInfo{})
		got, err := renderNumbers("s.max_iterations", "{{.inputs.n}} / 3", scope, fault.Position{})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %q, err %v", tt.n, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %q, %v; want %q", tt.n, got, err, tt.want)
		}
	}
	if _, err := renderNumbers("s", "{{if .inputs.n}}int(env.X){{end}}", NewScope(map[string]any{"n": "1"}, nil, WorkflowInfo{}), fault.Position{}); err == nil {
		t.Error("a block that prints text must be refused")
	}
}
