package mcpserve

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// TestStepProxyOverRealAdapters runs the step proxy's CLI path with the adapters awf wires: the
// config lands as a private file that decodes back to the step's toolset, and a process named
// by the ready record that outlives its CLI is stopped (checked with the process table itself,
// not the adapter under test).
func TestStepProxyOverRealAdapters(t *testing.T) {
	tmp := t.TempDir()
	svc := &stepproxy.Service{
		Build: func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
			return Build(ctx, spec, Deps{})
		},
		AwfPath: "/usr/bin/awf", RunID: "r1", TempDir: tmp, StragglerGrace: 50 * time.Millisecond,
		Files: privatefs.Files{}, Handoff: Handoff{}, Processes: process.Table{},
	}
	step := stepproxy.Step{Name: "review", Provider: "claude", Dir: t.TempDir(), Options: map[string]any{"api_key_env": "MY_KEY"},
		Proxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, Intent: workflow.DefaultIntent()}}
	sess, err := svc.Prepare(context.Background(), step)
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := sess.Attach.Args[len(sess.Attach.Args)-1]
	st, err := os.Stat(cfgFile)
	if err != nil || st.Mode().Perm() != 0o600 || filepath.Dir(filepath.Dir(cfgFile)) != tmp {
		t.Fatalf("config file %s: %v %v", cfgFile, st, err)
	}
	if dst, err := os.Stat(filepath.Dir(cfgFile)); err != nil || dst.Mode().Perm() != 0o700 {
		t.Fatalf("step dir: %v %v", dst, err)
	}
	f, _ := os.Open(cfgFile)
	spec, err := Decode(f)
	_ = f.Close()
	if err != nil || spec.Step != "review" || spec.Root != step.Dir || len(spec.HideEnv) != 1 || spec.HideEnv[0] != "MY_KEY" {
		t.Fatalf("decoded config %+v (%v)", spec, err)
	}

	// A straggler that ignores SIGTERM: only SIGKILL ends it.
	straggler := exec.Command("sh", "-c", "trap '' TERM; while :; do sleep 1; done")
	if err := straggler.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { _ = straggler.Wait(); close(reaped) }()
	defer func() { _ = straggler.Process.Kill(); <-reaped }()
	if err := writeReady(spec.ReadyFile, ReadyRecord{PID: straggler.Process.Pid, Tools: []string{"Read"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Finish(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reaped:
	case <-time.After(10 * time.Second):
		t.Fatal("straggler still running after Finish")
	}
	if err := syscall.Kill(straggler.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("straggler pid still exists: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(cfgFile)); !os.IsNotExist(err) {
		t.Fatalf("step dir not removed: %v", err)
	}
}
