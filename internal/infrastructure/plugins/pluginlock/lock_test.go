package pluginlock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestPinDiffAndDrift(t *testing.T) {
	a := NewPin("t", "d", map[string]any{"type": "object"}, nil, nil)
	b := NewPin("t", "d2", map[string]any{"type": "object"}, nil, map[string]bool{"readOnlyHint": true})
	if a.Fingerprint == b.Fingerprint || a.Diff(b) != "description, annotations changed" || a.Diff(a) != "name" {
		t.Errorf("diff = %q", a.Diff(b))
	}
	locked := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": a, "gone": a}}}
	now := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": b, "new": a}}}
	got := strings.Join(Drift(locked, now), "; ")
	if got != "plugin p: tool gone is gone; plugin p: tool new is new; plugin p: tool t: description, annotations changed" {
		t.Errorf("drift = %s", got)
	}
}

func TestProblems(t *testing.T) {
	a := NewPin("t", "d", nil, nil, nil)
	b := NewPin("t", "d2", nil, nil, nil)
	for _, tc := range []struct {
		name         string
		locked, now  map[string]ToolPin
		tools        []string
		wantProblems string
	}{
		{"all pinned", map[string]ToolPin{"t": a}, map[string]ToolPin{"t": a}, []string{"t"}, ""},
		{"not pinned", map[string]ToolPin{}, map[string]ToolPin{"t": a}, []string{"t"}, `tool "t" is not pinned`},
		{"moved", map[string]ToolPin{"t": a}, map[string]ToolPin{"t": b}, []string{"t"}, `tool "t": description changed`},
		{"unexposed drift is ignored", map[string]ToolPin{"t": a}, map[string]ToolPin{"t": b}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(Problems(tc.locked, tc.now, tc.tools), "; "); got != tc.wantProblems {
				t.Errorf("problems = %q, want %q", got, tc.wantProblems)
			}
		})
	}
}

func TestReadWrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plugins.lock")
	if _, ok, err := Read(file); ok || err != nil {
		t.Fatalf("no lock: ok %v, %v", ok, err)
	}
	l := Lock{Version: 1, Plugins: map[string]map[string]ToolPin{"p": {"t": NewPin("t", "d", nil, nil, nil)}}}
	if err := Write(file, l); err != nil {
		t.Fatal(err)
	}
	got, ok, err := Read(file)
	if !ok || err != nil || got.Plugins["p"]["t"] != l.Plugins["p"]["t"] {
		t.Fatalf("read back %+v %v %v", got, ok, err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(file); fault.CodeOf(err) != fault.UserPluginsLockInvalid {
		t.Errorf("a broken lock: %v", err)
	}
}
