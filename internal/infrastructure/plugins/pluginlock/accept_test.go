package pluginlock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestAcceptFollowsTheFingerprint(t *testing.T) {
	a := NewPin("t", "d", nil, nil, nil)
	b := NewPin("t", "d2", nil, nil, nil)
	l := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": a, "u": a}}}
	if l.IsAccepted("p", "t", a.Fingerprint) || (Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": {}}}}).IsAccepted("p", "t", "") {
		t.Fatal("accepted before Accept")
	}
	if err := l.Accept("p", "t"); err != nil {
		t.Fatal(err)
	}
	if !l.IsAccepted("p", "t", a.Fingerprint) || l.IsAccepted("p", "t", b.Fingerprint) || l.IsAccepted("p", "u", a.Fingerprint) || l.IsAccepted("q", "t", a.Fingerprint) {
		t.Fatalf("IsAccepted wrong: %+v", l)
	}
	// Writing the lock again keeps the acceptance of an unchanged tool, drops a changed one's.
	same := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": a}}}
	CarryAccepted(l, same)
	if same.Plugins["p"]["t"].Accepted != a.Fingerprint {
		t.Errorf("unchanged tool lost its acceptance: %+v", same)
	}
	changed := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": b, "u": a}}}
	CarryAccepted(l, changed)
	if changed.Plugins["p"]["t"].Accepted != "" || changed.Plugins["p"]["u"].Accepted != "" {
		t.Errorf("a changed or never accepted tool is accepted: %+v", changed)
	}
	// The acceptance is not part of the fingerprint: accepting is not drift.
	if d := Drift(same, Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": a}}}); len(d) != 0 {
		t.Errorf("drift %v", d)
	}
}

func TestAcceptUnknown(t *testing.T) {
	l := Lock{Plugins: map[string]map[string]ToolPin{"p": {"b\x1b[2J": {}, "a": {}}}}
	err := l.Accept("q", "t")
	if fault.CodeOf(err) != fault.UserMCPProxyUnknownPlugin {
		t.Errorf("unknown plugin: %v", err)
	}
	err = l.Accept("p", "t")
	var fe *fault.Error
	if fault.CodeOf(err) != fault.UserMCPProxyUnknownOperation || !asFault(err, &fe) || fe.Hint != `its tools are: a, b\u001B[2J` {
		t.Errorf("unknown tool: %v (hint %q)", err, fe.Hint)
	}
}

func asFault(err error, fe **fault.Error) bool {
	e, ok := err.(*fault.Error)
	*fe = e
	return ok
}

func TestWriteIsAtomicAndReadable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plugins.lock")
	l := Lock{Version: 1, Plugins: map[string]map[string]ToolPin{"p": {"t": {Fingerprint: "f", Accepted: "f"}}}}
	if err := Write(file, l); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
	got, ok, err := Read(file)
	if err != nil || !ok || !got.IsAccepted("p", "t", "f") {
		t.Errorf("read back %+v %v %v", got, ok, err)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), `"accepted": "f"`) {
		t.Errorf("%s", data)
	}
	if err := Write(filepath.Join(dir, "missing", "plugins.lock"), l); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestWithExtraCoversIconsAndMeta(t *testing.T) {
	a := NewPin("t", "d", nil, nil, nil)
	if a.WithExtra(nil) != a {
		t.Error("nil extra changed the pin: locks written before would drift")
	}
	b := a.WithExtra([]string{"icon"})
	c := a.WithExtra([]string{"other icon"})
	if b.Fingerprint == a.Fingerprint || b.Fingerprint == c.Fingerprint || b.Extra == "" {
		t.Fatalf("extra not in the fingerprint: %+v %+v", b, c)
	}
	if b.Diff(c) != "icons or _meta changed" || a.Diff(b) != "icons or _meta changed" {
		t.Errorf("diff %q", b.Diff(c))
	}
}
