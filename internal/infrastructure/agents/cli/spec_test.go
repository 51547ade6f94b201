package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// echoSpec is a CLI that is /bin/sh: the plan writes a private file and a script printing a
// JSON report built from it, the step's env and its forced and default variables.
var echoSpec = Spec{
	Name: "echo", Executable: "sh", Install: "apt-get install dash",
	Options:    append(Common(), options.Option{Name: "loud", Kind: options.KindBool, Example: "loud: true"}),
	Needs:      []options.Need{{Option: "loud", Needs: "model", Why: "volume is per model", Hint: "add model"}},
	Unisolated: "echo keeps its shell",
	NeedsDir:   func(v options.Values) bool { return v.Has("system_prompt") },
	Plan: func(req ports.AgentRequest, v options.Values, dir string, _ []string) (Plan, error) {
		p := Plan{Defaults: map[string]string{"QUIET": "1"}, Forced: map[string]string{"PRIVATE": dir}}
		script := `printf '{"out":"%s|%s|%s|%s"}' "$(cat "$PRIVATE/note" 2>/dev/null)" "$QUIET" "$MINE" "$1"`
		if dir != "" {
			p.Files = []File{{Path: filepath.Join(dir, "sub", "note"), Data: []byte(v.String("system_prompt"))}}
			p.Forced["PRIVATE"] = filepath.Join(dir, "sub")
			p.Dirs = []string{filepath.Join(dir, "empty")}
		}
		p.Args = []string{"-c", script, "echo", req.Prompt}
		return p, nil
	},
	Parse: func(r Result) (ports.AgentResult, error) {
		var rep struct{ Out string }
		err := json.Unmarshal(r.Stdout, &rep)
		return ports.AgentResult{Output: rep.Out}, err
	},
}

func TestSpecDerivesBinaryAndSchema(t *testing.T) {
	b := echoSpec.Binary()
	if b.Provider != "echo" || b.Name != "sh" || b.Install != "apt-get install dash" || b.EnvVar() != "AWF_ECHO_BIN" {
		t.Errorf("binary = %+v", b)
	}
	errs := echoSpec.Validate(map[string]any{"loud": "yes", "modle": "m"})
	if len(errs) != 3 || errs[0].Key != "loud" || errs[1].Key != "modle" || errs[2].Key != "loud" ||
		!strings.Contains(errs[0].Error(), "option loud of provider echo must be true or false") ||
		!strings.Contains(errs[2].Error(), "option loud of provider echo needs model: volume is per model (hint: add model)") {
		t.Errorf("problems = %v", errs)
	}
	if errs := echoSpec.Validate(map[string]any{"loud": true, "model": "m", "binary": "b", "extra_args": []any{}, "env": map[string]any{}, "system_prompt": ""}); errs != nil {
		t.Errorf("the common options and its own must all be accepted: %v", errs)
	}
}

func TestSpecIsolationWarning(t *testing.T) {
	if echoSpec.IsolationWarning(false) != "" || echoSpec.IsolationWarning(true) != "echo keeps its shell" {
		t.Errorf("warning = %q / %q", echoSpec.IsolationWarning(false), echoSpec.IsolationWarning(true))
	}
	full := echoSpec
	full.Unisolated = ""
	if full.IsolationWarning(true) != "" {
		t.Error("a CLI that switches every built-in off has nothing to warn about")
	}
	wf := &workflow.Workflow{Order: []string{"a"}, States: map[string]*workflow.State{"a": {Name: "a", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "echo",
		Options: map[string]any{"modle": 1}, MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true}}}}}
	ds := echoSpec.CheckWorkflow(context.Background(), wf)
	if len(ds) != 2 || ds[0].Code != fault.UserAgentUnknownOption || ds[1].Code != fault.UserMCPProxyUnsupportedProvider ||
		!strings.Contains(ds[1].Message, "echo keeps its shell") {
		t.Errorf("diagnostics = %v", ds)
	}
}

func TestProviderRunsTheSpec(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := Config{Environ: []string{"PATH=/usr/bin:/bin", "HOME=" + tmp}, Linger: 50 * time.Millisecond}
	p := New(echoSpec, cfg)
	if p.Name() != "echo" {
		t.Fatal(p.Name())
	}
	opts := map[string]any{"system_prompt": "note", "env": map[string]any{"MINE": "mine", "PRIVATE": "user-tries"}}
	out, err := p.Run(context.Background(), ports.AgentRequest{Step: "s", Prompt: "-p", Options: opts, Dir: tmp})
	if err != nil || out.Output != "note|1|mine|-p" {
		t.Fatalf("got %+v, %v", out, err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the private directory outlived the run: %v", left)
	}
	if _, err := p.Run(context.Background(), ports.AgentRequest{Step: "s", Options: map[string]any{"loud": true}}); fault.CodeOf(err) != fault.UserAgentInvalidOption {
		t.Errorf("options are checked before the run: %v", err)
	}
	for _, half := range []*ports.ProxyAttachment{{Command: "/bin/awf", TempDir: tmp}, {ServerName: "awf", TempDir: tmp}} {
		if _, err := p.Run(context.Background(), ports.AgentRequest{Step: "s", Attach: half}); fault.CodeOf(err) != fault.ExecutionAgentSetup ||
			!strings.Contains(err.Error(), "names no server or command") {
			t.Errorf("a half attachment %+v must be refused: %v", half, err)
		}
	}
	cfg.Environ = []string{"PATH=" + tmp}
	if _, err := New(echoSpec, cfg).Run(context.Background(), ports.AgentRequest{Step: "s"}); fault.CodeOf(err) != fault.ExecutionAgentCLINotFound ||
		!strings.Contains(err.Error(), "apt-get install dash") {
		t.Errorf("a missing binary names the install command: %v", err)
	}
}
