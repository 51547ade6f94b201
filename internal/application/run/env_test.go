package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestRequiredEnvIsCheckedBeforeAnything(t *testing.T) {
	s := cmdState("a", "make", "done", "bad")
	wf := flow(s)
	wf.Env = []string{"TOKEN", "EMPTY", "HOME", "ALSO"}
	sh := &fakeShell{t: t}
	_, err := newRun(t, Options{Commands: sh, Environ: []string{"HOME=/h", "EMPTY="}}).Run(context.Background(), wf, one)
	if fault.CodeOf(err) != fault.UserEnvMissing || fault.ExitCode(err) != fault.ExitUser || len(sh.commands()) != 0 {
		t.Fatalf("err %v commands %q", err, sh.commands())
	}
	if !strings.Contains(err.Error(), "TOKEN, EMPTY, ALSO") || strings.Contains(err.Error(), "HOME,") {
		t.Errorf("message names exactly the missing ones: %v", err)
	}
}
