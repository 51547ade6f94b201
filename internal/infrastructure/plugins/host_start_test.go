package plugins

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

func TestHostStartErrors(t *testing.T) {
	root, file := plugintest.Project(t, "")
	hang := writeScript(t, root, "hang.sh", "#!/bin/sh\necho $$ > \"$0.pid\"\nsleep 30 &\necho $! > \"$0.child\"\nwait\n")
	chatty := writeScript(t, root, "chatty.sh", "#!/bin/sh\necho something went wrong >&2\necho hello\n")
	if err := os.WriteFile(filepath.Join(root, "plain.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := plugintest.Build(t, "notes")["notes"]
	manifest := fmt.Sprintf(`plugins:
  missing:
    command: bin/plugins/missing
  hang:
    command: %s
  chatty:
    command: %s
  noexec:
    command: plain.txt
  noconfig:
    command: %s
`, hang, chatty, notes)
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	h := New(Options{Root: root, File: file})
	defer h.Close()
	short := New(Options{Root: root, File: file, StartTimeout: 700 * time.Millisecond})
	defer short.Close()
	ctx := context.Background()

	tests := []struct {
		plugin, code string
		line, col    int
		text         []string
		exit         int
	}{
		{"missing", fault.UserPluginsCommandNotFound, 3, 14, []string{"does not exist", "make plugins"}, fault.ExitUser},
		{"noexec", fault.UserPluginsCommandNotFound, 9, 14, []string{"not executable"}, fault.ExitUser},
		{"hang", fault.ExecutionPluginStartFailed, 4, 3, []string{"did not start within 700ms"}, fault.ExitExecution},
		{"chatty", fault.ExecutionPluginStartFailed, 6, 3, []string{"failed to start", "something went wrong"}, fault.ExitExecution},
		{"noconfig", fault.UserPluginsInitFailed, 10, 3, []string{"rejected its config", "needs dir"}, fault.ExitUser},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			host := h
			if tt.plugin == "hang" {
				host = short
			}
			start := time.Now()
			_, err := host.Operations(ctx, tt.plugin)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %s to fail", took)
			}
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Code != tt.code || fe.Pos.Line != tt.line || fe.Pos.Column != tt.col || fault.ExitCode(err) != tt.exit {
				t.Fatalf("error = %v (%#v), want %s at %d:%d", err, fe, tt.code, tt.line, tt.col)
			}
			for _, s := range tt.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			if st, _ := host.Status(tt.plugin); st.State != StateFailed || st.Err == nil {
				t.Errorf("state after a failed start = %+v", st)
			}
		})
	}
	// Failed starts count towards MaxCrashes: after three, calls fail at once.
	for range 2 {
		_, _ = h.Operations(ctx, "missing")
	}
	if _, err := h.Operations(ctx, "missing"); fault.CodeOf(err) != fault.ExecutionPluginCrashLoop || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("fourth start of a missing command = %v, want %s carrying the last cause", err, fault.ExecutionPluginCrashLoop)
	}
	// The hanging script and its child were killed with its process group.
	for _, f := range []string{hang + ".pid", hang + ".child"} {
		pid := readPID(t, f)
		if alive(pid) {
			t.Errorf("process %d (%s) outlived the failed start", pid, filepath.Base(f))
		}
	}
	if pids := plugintest.Processes(t, notes); len(pids) != 0 {
		t.Errorf("notes processes after a rejected config: %v", pids)
	}
}

func TestHostCancelDuringStart(t *testing.T) {
	root, file := plugintest.Project(t, "")
	hang := writeScript(t, root, "hang.sh", "#!/bin/sh\necho $$ > \"$0.pid\"\nexec sleep 30\n")
	if err := os.WriteFile(file, []byte("plugins:\n  hang: {command: "+hang+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := New(Options{Root: root, File: file, StartTimeout: time.Minute})
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := h.Operations(ctx, "hang")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a cancelled start took %s", took)
	}
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled start = %v", err)
	}
	if pid := readPID(t, hang+".pid"); alive(pid) {
		t.Errorf("process %d outlived the cancelled start", pid)
	}
}

func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	var pid int
	for range 50 {
		b, err := os.ReadFile(path)
		if err == nil {
			if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

// alive reports whether pid runs (a zombie does not count: it has exited).
func alive(pid int) bool {
	for range 50 { // the kill is asynchronous; give the kernel a moment
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
