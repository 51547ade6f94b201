package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

// comparer runs workflow files through both binaries.
type comparer struct {
	ref, ours, fixtures string
	inputs              map[string]map[string]string
	timeout             time.Duration
	verbose             bool
}

// agentStep spots workflows that need a real model: they are only validated.
var agentStep = regexp.MustCompile(`(?m)^\s+type:\s*["']?agent\b|^\s+mode:\s*["']?conversation`)

// compare validates file with both binaries and, when both accept it and it has no agent
// steps, runs it with both.
func (c *comparer) compare(ctx context.Context, file string) row {
	base := filepath.Base(file)
	name := strings.TrimSuffix(base, ".yaml")
	r := row{file: base}
	refDir, err := c.project()
	if err != nil {
		r.skip = err.Error()
		return r
	}
	defer os.RemoveAll(refDir)
	ourDir, err := c.project()
	if err != nil {
		r.skip = err.Error()
		return r
	}
	defer os.RemoveAll(ourDir)

	var out string
	out, r.refValid = c.exec(ctx, c.ref, refDir, "validate", name)
	r.refValidMsg = out
	out, r.ourOK = c.exec(ctx, c.ours, ourDir, "validate", name)
	r.ourValidMsg = out
	src, _ := os.ReadFile(file)
	switch {
	case agentStep.Match(src):
		r.skip = "agent steps: validate only"
	case !r.refValid:
		r.skip = "reference rejects it"
	default:
		r.ran = true
		r.refRun = c.runRef(ctx, refDir, name)
		r.ourRun = c.runOurs(ctx, ourDir, name)
		r.diffs = differences(r.refRun, r.ourRun)
	}
	return r
}

// project makes a temp project: .awf/workflows holding every fixture (some call others), a
// home, a temp dir, and a work dir, all private to one run.
func (c *comparer) project() (string, error) {
	dir, err := os.MkdirTemp("", "refcompare-")
	if err != nil {
		return "", err
	}
	wfDir := filepath.Join(dir, "proj", ".awf", "workflows")
	for _, d := range []string{wfDir, filepath.Join(dir, "home"), filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}
	entries, err := os.ReadDir(c.fixtures)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(c.fixtures, e.Name()))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(wfDir, e.Name()), b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// exec runs bin in the project under dir with a private environment; ok is a zero exit.
func (c *comparer) exec(ctx context.Context, bin, dir string, args ...string) (string, bool) {
	out, _, code := c.execSplit(ctx, bin, dir, args...)
	return out, code == 0
}

// execSplit runs bin and returns its whole output, its stdout alone, and its exit code.
func (c *comparer) execSplit(ctx context.Context, bin, dir string, args ...string) (string, string, int) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = filepath.Join(dir, "proj")
	cmd.Env = []string{
		"HOME=" + filepath.Join(dir, "home"), "TMPDIR=" + filepath.Join(dir, "tmp"),
		"PATH=" + os.Getenv("PATH"), "USER=refcompare", "LANG=C.UTF-8", "NO_COLOR=1",
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var buf, stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&buf, &stdout), &buf
	err := cmd.Run()
	if ctx.Err() != nil {
		return buf.String() + "\n(timed out)", stdout.String(), -2
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return buf.String(), stdout.String(), ee.ExitCode()
		}
		return buf.String() + "\n" + err.Error(), stdout.String(), -1
	}
	return buf.String(), stdout.String(), 0
}

func (c *comparer) inputArgs(name string) []string {
	var args []string
	keys := make([]string, 0, len(c.inputs[name+".yaml"]))
	for k := range c.inputs[name+".yaml"] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-i", k+"="+c.inputs[name+".yaml"][k])
	}
	return args
}

// runRef runs the workflow on the reference and reads its saved state.
func (c *comparer) runRef(ctx context.Context, dir, name string) result {
	out, _, _ := c.execSplit(ctx, c.ref, dir, append([]string{"run", name}, c.inputArgs(name)...)...)
	res := result{raw: out, status: "failure", states: map[string]stateResult{}}
	files, _ := filepath.Glob(filepath.Join(dir, "home", ".local", "share", "awf", "states", "*.json"))
	var st struct {
		WorkflowName string
		Status       string
		CurrentStep  string
		States       map[string]struct {
			Output   string
			ExitCode int
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(b, &st) != nil {
			continue
		}
		if st.WorkflowName == "" || st.CurrentStep == "" {
			continue // a sub-workflow's record, or nothing recorded
		}
	}
	switch st.Status {
	case "completed":
		res.status = "success"
	default: // failed, cancelled, or no state saved (it stopped before running)
		res.status = "failure"
	}
	res.terminal = st.CurrentStep
	for n, s := range st.States {
		res.states[n] = stateResult{output: strings.TrimRight(s.Output, "\n"), exitCode: s.ExitCode}
	}
	return res
}

// runOurs runs the workflow on this awf and reads its JSON summary.
func (c *comparer) runOurs(ctx context.Context, dir, name string) result {
	out, stdout, _ := c.execSplit(ctx, c.ours, dir, append([]string{"run", name, "--format", "json"}, c.inputArgs(name)...)...)
	res := result{raw: out, status: "failure", states: map[string]stateResult{}}
	var sum struct {
		Status   string `json:"status"`
		Terminal string `json:"terminal"`
		Steps    []struct {
			Name     string `json:"name"`
			Output   string `json:"output"`
			ExitCode int    `json:"exit_code"`
		} `json:"steps"`
	}
	if json.Unmarshal([]byte(stdout), &sum) == nil {
		// The reference has one word for a run that did not succeed; so does the comparison.
		res.status, res.terminal = sum.Status, sum.Terminal
		if res.status == "error" || res.status == "interrupted" {
			res.status = "failure"
		}
		for _, s := range sum.Steps {
			res.states[s.Name] = stateResult{output: strings.TrimRight(s.Output, "\n"), exitCode: s.ExitCode}
		}
	}
	return res
}

// differences lists how two runs ended differently: status, terminal, and the output and exit
// code of each state both ran.
func differences(ref, ours result) []string {
	var d []string
	if ref.status != ours.status {
		d = append(d, fmt.Sprintf("status ref=%s awf=%s", ref.status, ours.status))
	}
	if ref.terminal != ours.terminal && ref.status == "success" {
		d = append(d, fmt.Sprintf("terminal ref=%q awf=%q", ref.terminal, ours.terminal))
	}
	names := make([]string, 0, len(ref.states))
	for n := range ref.states {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		o, ok := ours.states[n]
		if !ok {
			if ref.status == "success" {
				d = append(d, fmt.Sprintf("state %s not run here", n))
			}
			continue
		}
		r := ref.states[n]
		if r.output != o.output {
			d = append(d, fmt.Sprintf("%s.Output ref=%q awf=%q", n, clip(r.output), clip(o.output)))
		}
		if r.exitCode != o.exitCode && !(r.exitCode == 0 && o.exitCode == -1) {
			d = append(d, fmt.Sprintf("%s.ExitCode ref=%d awf=%d", n, r.exitCode, o.exitCode))
		}
	}
	return d
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
