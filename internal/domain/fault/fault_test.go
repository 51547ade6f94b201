package fault

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{New("USER.X.Y", "bad"), ExitUser},
		{fmt.Errorf("wrapped: %w", New("WORKFLOW.RUN.FAILED", "x")), ExitWorkflow},
		{New("EXECUTION.AGENT.CLI_FAILED", "x"), ExitExecution},
		{New("SYSTEM.FS.X", "x"), ExitSystem},
		{New("INTERRUPT.RUN.SIGNAL", "x"), ExitInterrupted},
		{errors.New("uncoded"), ExitSystem},
		{Diagnostics{{Code: "USER.A.B", Severity: SeverityError}}.AsError("w"), ExitUser},
	}
	for _, tc := range tests {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	err := Wrap(errors.New("disk full"), "SYSTEM.FS.WRITE", "cannot write %s", "x").At(Position{File: "f.yaml", Line: 3, Column: 5}).WithHint("free space")
	want := "f.yaml:3:5: [SYSTEM.FS.WRITE] cannot write x: disk full (hint: free space)"
	if err.Error() != want {
		t.Fatalf("got %q\nwant %q", err.Error(), want)
	}
	if !errors.Is(err, err.Err) || CodeOf(err) != "SYSTEM.FS.WRITE" {
		t.Fatal("unwrap or code lost")
	}
}

func TestDiagnostics(t *testing.T) {
	var ds Diagnostics
	ds.Warnf(Position{File: "b", Line: 1}, "USER.W", "", "warn")
	ds.Errorf(Position{File: "a", Line: 9, Column: 2}, "USER.E", "fix it", "err %d", 1)
	ds.Errorf(Position{File: "a", Line: 2, Column: 7}, "USER.E2", "", "err 2")
	ds.Sort()
	if ds[0].Code != "USER.E2" || ds[2].Code != "USER.W" || len(ds.Errors()) != 2 || len(ds.Warnings()) != 1 || !ds.HasErrors() {
		t.Fatalf("sorted %+v", ds)
	}
	if s := ds[1].String(); !strings.Contains(s, "a:9:2: error: err 1 [USER.E]") || !strings.Contains(s, "hint: fix it") {
		t.Fatalf("String() = %q", s)
	}
	if (Diagnostics{ds[2]}).AsError("w") != nil {
		t.Fatal("warnings alone must not be an error")
	}
}
