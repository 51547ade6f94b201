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

func load(b testing.TB, src string) *workflow.Workflow {
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

// mixed writes a workflow of n main states in a chain, every tenth a for_each over three items
// (one body state) and every tenth but five a parallel state of two branches, the rest commands
// leaving through a `when`: about 1.3 n states in all.
func mixed(n int) string {
	var b strings.Builder
	b.WriteString("name: mixed\ninputs:\n  - name: target\n    type: string\n    default: ./...\nstates:\n  initial: s0\n")
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		switch i % 10 {
		case 3:
			fmt.Fprintf(&b, "  s%d:\n    type: for_each\n    items: '[\"a\", \"b\", \"c\"]'\n    body: [b%d]\n    on_complete: %s\n    on_failure: failed\n", i, i, next)
			fmt.Fprintf(&b, "  b%d:\n    type: step\n    command: echo {{.loop.Item}} {{.loop.Index1}} {{.inputs.target}}\n", i)
		case 7:
			fmt.Fprintf(&b, "  s%d:\n    type: parallel\n    parallel: [p%da, p%db]\n    on_success: %s\n    on_failure: failed\n", i, i, i, next)
			fmt.Fprintf(&b, "  p%da:\n    type: step\n    command: echo a {{.states.s%d.ExitCode}}\n", i, i-1)
			fmt.Fprintf(&b, "  p%db:\n    type: step\n    command: echo b {{.inputs.target}}\n", i)
		default:
			ref, cond := "", "true"
			if i > 0 {
				ref = fmt.Sprintf(" {{.states.s%d.ExitCode}}", i-1)
				cond = fmt.Sprintf("states.s%d.ExitCode == 0", i-1)
			}
			fmt.Fprintf(&b, "  s%d:\n    type: step\n    command: echo {{.inputs.target}}%s\n", i, ref)
			fmt.Fprintf(&b, "    transitions:\n      - when: '%s && inputs.target != \"\"'\n        goto: %s\n      - goto: failed\n", cond, next)
		}
	}
	b.WriteString("  done: {type: terminal}\n  failed: {type: terminal, status: failure}\n")
	return b.String()
}

// BenchmarkLoadValidate500 loads and validates a workflow of about 500 states with loops and
// parallel states, as `awf validate` and the start of `awf run` do.
func BenchmarkLoadValidate500(b *testing.B) {
	path := filepath.Join(b.TempDir(), "wf.yaml")
	if err := os.WriteFile(path, []byte(mixed(380)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		wf, ds, err := yamlrepo.Load(path)
		if err != nil || ds.HasErrors() || len(wf.States) < 490 {
			b.Fatalf("load: %v %v (%d states)", err, ds, len(wf.States))
		}
	}
}

// BenchmarkTransitionMixed reports the engine's own time per step (ns/step) over the mixed
// workflow: loop iterations and parallel branches count as steps, as the console shows them.
func BenchmarkTransitionMixed(b *testing.B) {
	wf := load(b, mixed(380))
	sh := &instant{}
	r, err := run.New(run.Options{Commands: sh, Expressions: expr.Compiler{}, Environ: []string{"HOME=/nowhere"}, MaxSteps: 10000})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		res, err := r.Run(context.Background(), wf, nil)
		if err != nil || res.Terminal != "done" {
			b.Fatalf("run: %v, terminal %q", err, res.Terminal)
		}
		steps += len(res.Steps)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}
