// Package engine_test measures the run engine itself, with the real YAML loader, validator and
// expression language and a command runner that answers at once, so what is timed is awf's own
// work per state: rendering templates, evaluating transitions, recording results and events.
package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// instant answers every command with its own text, as if echo ran in no time.
type instant struct{ calls int }

func (i *instant) RunCommand(_ context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	i.calls++
	return ports.CommandResult{Stdout: req.Command + "\n"}, nil
}

// chain writes a workflow of n command states, each reading an input and the state before it,
// leaving through a `when` transition over the previous state's output and exit code.
func chain(n int) string {
	var b strings.Builder
	b.WriteString("name: chain\ninputs:\n  - name: target\n    type: string\n    default: ./...\nstates:\n  initial: s0\n")
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		// s0 reads no state: none has run before it.
		ref, cond := "", "true"
		if i > 0 {
			ref = fmt.Sprintf(" {{.states.s%d.ExitCode}}", i-1)
			cond = fmt.Sprintf("states.s%d.ExitCode == 0", i-1)
		}
		fmt.Fprintf(&b, "  s%d:\n    type: step\n    command: echo {{.inputs.target}}%s\n", i, ref)
		fmt.Fprintf(&b, "    transitions:\n      - when: '%s && inputs.target != \"\"'\n        goto: %s\n      - goto: failed\n", cond, next)
	}
	b.WriteString("  done: {type: terminal}\n  failed: {type: terminal, status: failure}\n")
	return b.String()
}

func load(b *testing.B, src string) *workflow.Workflow {
	b.Helper()
	path := filepath.Join(b.TempDir(), "wf.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	wf, ds, err := yamlrepo.Load(path)
	if err != nil || ds.HasErrors() {
		b.Fatalf("load: %v %v", err, ds)
	}
	return wf
}

// BenchmarkTransition reports the engine's own time per state of a 500-state run (ns/state):
// the target is under 1 ms.
func BenchmarkTransition(b *testing.B) {
	const n = 500
	wf := load(b, chain(n))
	sh := &instant{}
	r, err := run.New(run.Options{Commands: sh, Expressions: expr.Compiler{}, Environ: []string{"HOME=/nowhere"}, MaxSteps: 10 * n})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Run(context.Background(), wf, nil)
		if err != nil || res.Terminal != "done" || len(res.Steps) != n {
			b.Fatalf("run: %v, terminal %q, %d steps", err, res.Terminal, len(res.Steps))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/state")
}
