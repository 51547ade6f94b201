// Command refcompare runs the same workflows through the reference awf (awf-project/cli) and
// through this awf, and prints where they differ: whether `validate` accepts each workflow, and,
// for the workflows without agent steps, how `run` ends (status, terminal state) and what each
// state's output and exit code were.
//
// It exists because "runs the workflows users already have" is only a claim until both
// binaries are run side by side on the same files. Each workflow runs in a fresh temp project
// with a fresh HOME and TMPDIR, never the caller's own.
//
//	go run ./refcompare -ref /tmp/ref/awf-ref -awf ../bin/awf -fixtures /tmp/ref/src/tests/fixtures/workflows
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	ref := flag.String("ref", "", "the reference awf binary")
	ours := flag.String("awf", "bin/awf", "this awf's binary")
	fixtures := flag.String("fixtures", "", "directory of workflow files (the reference's tests/fixtures/workflows)")
	inputsFile := flag.String("inputs", "", "optional JSON file: workflow file name → {input: value} to run it with")
	only := flag.String("only", "", "compare only the files whose names contain this")
	timeout := flag.Duration("timeout", 20*time.Second, "time limit of each run")
	verbose := flag.Bool("v", false, "print both outputs of every difference")
	flag.Parse()
	if *ref == "" || *fixtures == "" {
		flag.Usage()
		os.Exit(2)
	}
	inputs, err := loadInputs(*inputsFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c := &comparer{ref: abs(*ref), ours: abs(*ours), fixtures: abs(*fixtures), inputs: inputs, timeout: *timeout, verbose: *verbose}
	files, err := filepath.Glob(filepath.Join(c.fixtures, "*.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sort.Strings(files)
	var rows []row
	for _, f := range files {
		if *only != "" && !strings.Contains(filepath.Base(f), *only) {
			continue
		}
		rows = append(rows, c.compare(context.Background(), f))
	}
	report(os.Stdout, rows, *verbose)
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func loadInputs(path string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	if path == "" {
		return out, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return out, json.Unmarshal(b, &out)
}

// row is the comparison of one workflow file.
type row struct {
	file            string
	refValid, ourOK bool
	ourValidMsg     string
	refValidMsg     string
	ran             bool
	skip            string
	refRun, ourRun  result
	diffs           []string
}

// result is how one run ended, as far as both binaries report it.
type result struct {
	status   string // success | failure
	terminal string
	states   map[string]stateResult
	raw      string
}

type stateResult struct {
	output   string
	exitCode int
}

func report(w io.Writer, rows []row, verbose bool) {
	var vSame, vBoth, runSame, runs int
	for _, r := range rows {
		mark := "same"
		if r.refValid != r.ourOK {
			mark = "DIFF"
		} else {
			vSame++
		}
		if r.refValid && r.ourOK {
			vBoth++
		}
		line := fmt.Sprintf("%-48s validate ref=%-5v awf=%-5v %s", r.file, r.refValid, r.ourOK, mark)
		switch {
		case r.skip != "":
			line += "   run: " + r.skip
		case r.ran:
			runs++
			if len(r.diffs) == 0 {
				runSame++
				line += fmt.Sprintf("   run: same (%s, %s)", r.refRun.status, r.refRun.terminal)
			} else {
				line += "   run: DIFF " + strings.Join(r.diffs, "; ")
			}
		}
		fmt.Fprintln(w, line)
		if mark == "DIFF" {
			msg := r.ourValidMsg
			if !r.refValid {
				msg = r.refValidMsg
			}
			fmt.Fprintln(w, "    "+indent(firstLines(msg, 6)))
		}
		if verbose && len(r.diffs) > 0 {
			fmt.Fprintln(w, "    ref: "+indent(firstLines(r.refRun.raw, 10)))
			fmt.Fprintln(w, "    awf: "+indent(firstLines(r.ourRun.raw, 10)))
		}
	}
	fmt.Fprintf(w, "\n%d workflows: validate agrees on %d (both accept %d); of %d run on both, %d end the same\n",
		len(rows), vSame, vBoth, runs, runSame)
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }
