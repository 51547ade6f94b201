package clitest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

func (s Suite) runOK(t *testing.T, r Run, proxy bool) {
	h := New(t)
	x := strings.NewReplacer("{priv}", filepath.Join(h.TempDir, s.Name), "{tmp}", h.TempDir, "{home}", h.Home, "{dir}", h.Dir)
	for name, content := range r.UserFiles {
		p := filepath.Join(h.Home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := h.Watch(s.Name)
	var attach *ports.ProxyAttachment
	if proxy {
		attach = h.Attach(true, r.Tools...)
	}
	p := cli.New(s.Spec, h.Config(r.Environ...))
	if p.Name() != s.Name {
		t.Fatalf("Name() = %q, want %q", p.Name(), s.Name)
	}
	out, err := p.Run(context.Background(), h.Request("read marker.txt", h.Options(testdata(r.Report), expand(x, r.Options)), attach))
	if err != nil {
		t.Fatal(err)
	}
	if out != r.Want {
		t.Errorf("result = %+v\nwant     %+v", out, r.Want)
	}
	rec := h.Read()
	want := make([]string, len(r.WantArgs))
	for i, a := range r.WantArgs {
		want[i] = x.Replace(a)
	}
	if !reflect.DeepEqual(rec.Args, want) {
		t.Errorf("argv\n got %q\nwant %q", rec.Args, want)
	}
	if rec.Cwd != h.Dir {
		t.Errorf("cwd = %s, want the step's dir %s", rec.Cwd, h.Dir)
	}
	for k, v := range r.WantEnv {
		if got, ok := rec.Env[k]; !ok || got != x.Replace(v) {
			t.Errorf("env %s = %q, want %q", k, got, x.Replace(v))
		}
	}
	for k, v := range r.EnvPrefix {
		if !strings.HasPrefix(rec.Env[k], x.Replace(v)) {
			t.Errorf("env %s = %q, want it to start with %q", k, rec.Env[k], x.Replace(v))
		}
	}
	for _, k := range r.EnvLacks {
		if v, ok := rec.Env[k]; ok {
			t.Errorf("env %s = %q, want it unset", k, v)
		}
	}
	checkFiles(t, rec.Files, r.WantFiles)
	check()
}

func checkFiles(t *testing.T, got map[string]string, want map[string]File) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("private files %v, want %d: %v", keys(got), len(want), want)
	}
	for path, w := range want {
		data, ok := got[path]
		switch {
		case !ok:
			t.Errorf("no private file %s among %v", path, keys(got))
		case w.Is != "" && data != w.Is:
			t.Errorf("%s = %q, want %q", path, data, w.Is)
		}
		for _, s := range w.Has {
			if !strings.Contains(data, s) {
				t.Errorf("%s lacks %q:\n%s", path, s, data)
			}
		}
		for _, s := range w.Lacks {
			if strings.Contains(data, s) {
				t.Errorf("%s holds %q:\n%s", path, s, data)
			}
		}
	}
}

func (s Suite) notInstalled(t *testing.T) {
	h := New(t)
	cfg := h.Config()
	cfg.Environ = []string{"PATH=" + h.Dir, "HOME=" + h.Home}
	_, err := cli.New(s.Spec, cfg).Run(context.Background(), h.Request("p", nil, nil))
	if fault.CodeOf(err) != fault.ExecutionAgentCLINotFound || !strings.Contains(err.Error(), s.InstallHint) ||
		!strings.Contains(err.Error(), s.EnvVar) {
		t.Fatalf("want %s naming %q and %s, got %v", fault.ExecutionAgentCLINotFound, s.InstallHint, s.EnvVar, err)
	}
}

// errors runs the shared failures, then the CLI's own.
func (s Suite) errors(t *testing.T) {
	h := New(t)
	garbage := filepath.Join(t.TempDir(), "garbage")
	if err := os.WriteFile(garbage, []byte("<html>rate limited</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(kv ...string) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return map[string]any{"env": m}
	}
	type run struct {
		name     string
		opts     map[string]any
		attach   *ports.ProxyAttachment
		wantCode string
		wantText string
		ran      bool // the fake CLI must have started
		stopped  bool // the step must have stopped before starting it
	}
	runs := []run{
		{name: "non-zero exit, no report", opts: h.Options("", env("FAKE_EXIT", "2", "FAKE_STDERR", "error: unknown option '--bogus'")),
			wantCode: fault.ExecutionAgentCLIFailed, wantText: "exited with status 2: error: unknown option '--bogus'", ran: true},
		{name: "garbage output", opts: h.Options(garbage, nil), wantCode: fault.ExecutionAgentBadOutput, wantText: "<html>rate limited", ran: true},
		{name: "binary missing", opts: map[string]any{"binary": filepath.Join(h.Dir, "no-cli")},
			wantCode: fault.ExecutionAgentCLINotFound, wantText: "not an executable file"},
		{name: "bad option stops before running", opts: h.Options("", map[string]any{"modle": "x"}), wantCode: fault.UserAgentUnknownOption, stopped: true},
		{name: "half a proxy attachment", opts: h.Options("", nil), attach: &ports.ProxyAttachment{TempDir: h.TempDir},
			wantCode: fault.ExecutionAgentSetup, wantText: "names no server or command", stopped: true},
	}
	for _, c := range s.Errors {
		r := run{name: c.Name, wantCode: c.WantCode, wantText: c.WantText}
		kv := []string{"FAKE_EXIT", c.Exit}
		if c.Stderr != "" {
			kv = append(kv, "FAKE_STDERR", string(read(t, c.Stderr)))
		}
		r.opts = h.Options(testdata(c.Report), env(kv...))
		if c.Tools != nil {
			r.attach = h.Attach(true, c.Tools...)
		}
		runs = append(runs, r)
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			_ = os.Remove(h.Record + ".args")
			_, err := cli.New(s.Spec, h.Config()).Run(context.Background(), h.Request("p", r.opts, r.attach))
			if fault.CodeOf(err) != r.wantCode || !strings.Contains(err.Error(), r.wantText) {
				t.Fatalf("want %s containing %q, got %v", r.wantCode, r.wantText, err)
			}
			_, err = os.Stat(h.Record + ".args")
			if r.ran && err != nil {
				t.Error("the CLI never ran")
			}
			if r.stopped && err == nil {
				t.Error("the CLI ran although the step could not start")
			}
		})
	}
}

func (s Suite) timeout(t *testing.T) {
	h := New(t)
	check := h.Watch(s.Name)
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	opts := h.Options("", map[string]any{"env": map[string]any{"FAKE_PIDFILE": pidfile, "FAKE_STUBBORN": "1"}})
	_, err := cli.New(s.Spec, h.Config()).Run(ctx, h.Request("p", opts, h.Attach(true, "Read")))
	if fault.CodeOf(err) != fault.ExecutionAgentStopped || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want %s wrapping DeadlineExceeded, got %v", fault.ExecutionAgentStopped, err)
	}
	AssertGone(t, pidfile)
	check()
}

func (s Suite) parse(t *testing.T) {
	for _, c := range s.Parse {
		t.Run(c.Name, func(t *testing.T) {
			res := cli.Result{ExitCode: c.Exit, Stdout: []byte(c.Stdout), Stderr: c.Stderr}
			if !c.Inline {
				res.Stdout, res.Stderr = nil, ""
				if c.Stdout != "" {
					res.Stdout = read(t, c.Stdout)
				}
				if c.Stderr != "" {
					res.Stderr = string(read(t, c.Stderr))
				}
			}
			out, err := cli.Outcome(s.Name, res, s.Spec.Parse)
			if fault.CodeOf(err) != c.WantCode || (err != nil && !strings.Contains(err.Error(), c.WantText)) {
				t.Fatalf("want %q containing %q, got %v", c.WantCode, c.WantText, err)
			}
			if out != c.Want {
				t.Errorf("result = %+v\nwant     %+v", out, c.Want)
			}
		})
	}
}

func (s Suite) options(t *testing.T) {
	for _, c := range s.Options {
		t.Run(c.Name, func(t *testing.T) {
			errs := s.Spec.Validate(c.Opts)
			if len(errs) != len(c.Want) {
				t.Fatalf("got %d problems, want %d: %v", len(errs), len(c.Want), errs)
			}
			for i, w := range c.Want {
				if errs[i].Key != w.Key {
					t.Errorf("problem %d is about %s, want %s: %v", i, errs[i].Key, w.Key, errs[i])
				}
				for _, text := range w.Has {
					if !strings.Contains(errs[i].Error(), text) {
						t.Errorf("problem %d %q lacks %q", i, errs[i], text)
					}
				}
			}
		})
	}
}

// warning checks the isolation warning itself and that `awf validate` prints it, on the
// intercept_builtins key, for a proxied step on this CLI only.
func (s Suite) warning(t *testing.T) {
	if w := s.Spec.IsolationWarning(false); w != "" {
		t.Errorf("without intercept there is nothing to isolate, got %q", w)
	}
	got := s.Spec.IsolationWarning(true)
	if (s.Warning == "") != (got == "") || !strings.Contains(got, s.Warning) {
		t.Errorf("warning = %q, want one containing %q", got, s.Warning)
	}
	pos := fault.Position{File: "wf.yaml", Line: 7, Column: 9}
	proxied := func(provider string) *workflow.State {
		return &workflow.State{Name: provider, Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: provider,
			MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, KeyPos: map[string]fault.Position{"intercept_builtins": pos}}}}
	}
	wf := &workflow.Workflow{Order: []string{s.Name, "other"}, States: map[string]*workflow.State{s.Name: proxied(s.Name), "other": proxied("other")}}
	ds := s.Spec.CheckWorkflow(context.Background(), wf)
	switch {
	case s.Warning == "" && len(ds) != 0:
		t.Errorf("a fully isolated CLI must not warn: %v", ds)
	case s.Warning != "" && (len(ds) != 1 || ds[0].Code != fault.UserMCPProxyUnsupportedProvider || ds[0].Severity != fault.SeverityWarning || ds[0].Position != pos):
		t.Errorf("want one %s warning at %v for this CLI's step, got %v", fault.UserMCPProxyUnsupportedProvider, pos, ds)
	}
}

// testdata is the path of a testdata file of the package under test ("" stays "").
func testdata(name string) string {
	if name == "" {
		return ""
	}
	return filepath.Join("testdata", name)
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expand replaces the placeholders in the string values of opts, one level into "env".
func expand(x *strings.Replacer, opts map[string]any) map[string]any {
	out := make(map[string]any, len(opts))
	for k, v := range opts {
		switch t := v.(type) {
		case string:
			out[k] = x.Replace(t)
		case map[string]any:
			out[k] = expand(x, t)
		default:
			out[k] = v
		}
	}
	return out
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
