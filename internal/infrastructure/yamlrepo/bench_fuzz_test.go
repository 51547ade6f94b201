package yamlrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// generate writes a valid workflow of n command states chained by on_success, each reading an
// input and the output of the state before it, plus two terminals.
func generate(n int) string {
	var b strings.Builder
	b.WriteString("name: big\ndescription: generated\ninputs:\n  - name: target\n    type: string\n    default: ./...\n  - name: retries\n    type: integer\n    default: 3\nstates:\n  initial: s0\n")
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		ref := "" // s0 reads no state: none has run before it
		if i > 0 {
			ref = fmt.Sprintf(" {{.states.s%d.Output}}", i-1)
		}
		fmt.Fprintf(&b, "  s%d:\n    type: command\n    command: echo {{.inputs.target}}%s {{.inputs.retries}}\n    dir: \"{{.env.HOME}}\"\n    timeout: 30s\n    on_success: %s\n    on_failure: failed\n", i, ref, next)
	}
	b.WriteString("  done: {type: terminal}\n  failed: {type: terminal, status: failure, message: step failed}\n")
	return b.String()
}

func BenchmarkLoadValidate200(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(generate(200)), 0o644); err != nil {
		b.Fatal(err)
	}
	// The generated file must be valid, or the benchmark measures error paths.
	if _, ds, err := Load(path); err != nil || len(ds) != 0 {
		b.Fatalf("generated workflow: %v %v", err, ds)
	}
	b.ReportAllocs()
	for b.Loop() {
		w, ds, err := Load(path)
		if err != nil || len(ds) != 0 || len(w.States) != 202 {
			b.Fatal("unexpected result")
		}
	}
}

// FuzzLoad feeds arbitrary bytes through a file into Load: it must not panic, must not fail on
// a readable file, and must return a workflow and well-formed, sorted diagnostics.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(generate(3)))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("states: {initial: a, a: {<<: [*x]}}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, ds, err := Load(path)
		if len(data) > MaxFileSize {
			return
		}
		if err != nil {
			t.Fatalf("Load failed on a readable file: %v", err)
		}
		if w == nil {
			t.Fatal("nil workflow")
		}
		for _, d := range ds {
			if d.Code == "" || d.File != path || d.Message == "" {
				t.Fatalf("malformed diagnostic %+v", d)
			}
			if fault.CategoryOf(d.Code) != fault.User {
				t.Fatalf("diagnostic code %q is not a USER code", d.Code)
			}
		}
		if !sort.SliceIsSorted(ds, func(i, j int) bool {
			return ds[i].Line < ds[j].Line || ds[i].Line == ds[j].Line && ds[i].Column < ds[j].Column
		}) {
			t.Fatalf("diagnostics not sorted: %v", ds)
		}
	})
}
