package plugins

import (
	"testing"

	"github.com/hashicorp/go-hclog"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

func TestHCLogAdapter(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	l := newHCLog(zap.New(core), "plugin", hclog.Debug)

	l.Trace("dropped by the hclog level")
	l.Debug("d", "k", 1)
	l.Info("i")
	l.Warn("w")
	l.Error("e", "dangling")
	l.Named("stdio").With("a", "b").Info("named", "c", 2)
	l.StandardLogger(nil).Print("std line")

	want := []struct {
		msg    string
		level  zapcore.Level
		fields map[string]any
	}{
		{"d", zapcore.DebugLevel, map[string]any{"logger": "plugin", "k": int64(1)}},
		{"i", zapcore.InfoLevel, nil},
		{"w", zapcore.WarnLevel, nil},
		{"e", zapcore.ErrorLevel, map[string]any{"dangling": "MISSING"}},
		{"named", zapcore.InfoLevel, map[string]any{"logger": "plugin.stdio", "a": "b", "c": int64(2)}},
		{"std line", zapcore.InfoLevel, nil},
	}
	got := logs.All()
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Message != w.msg || got[i].Level != w.level {
			t.Errorf("entry %d = %s/%s, want %s/%s", i, got[i].Level, got[i].Message, w.level, w.msg)
		}
		m := got[i].ContextMap()
		for k, v := range w.fields {
			if m[k] != v {
				t.Errorf("entry %q field %s = %v (%T), want %v", w.msg, k, m[k], m[k], v)
			}
		}
	}

	if !l.IsDebug() || l.IsTrace() || !l.IsError() {
		t.Error("Is* does not follow the level")
	}
	l.SetLevel(hclog.Error)
	if l.GetLevel() != hclog.Error || l.IsWarn() {
		t.Error("SetLevel had no effect")
	}
	if l.Name() != "plugin" || l.ResetNamed("x").Name() != "x" || len(l.With("a", 1).ImpliedArgs()) != 2 {
		t.Error("naming and implied args are wrong")
	}
	quiet := newHCLog(zap.New(core).WithOptions(zap.IncreaseLevel(zapcore.WarnLevel)), "", hclog.Trace)
	if quiet.IsInfo() || !quiet.IsWarn() {
		t.Error("Is* ignores zap's own level")
	}
}

func TestLineLogger(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	w := newLineLogger(zap.New(core), "stdout")
	for _, s := range []string{"one\ntw", "o\r\n", "\n", "three"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for _, e := range logs.All() {
		lines = append(lines, e.ContextMap()["line"].(string))
	}
	if len(lines) != 2 || lines[0] != "one" || lines[1] != "two" {
		t.Errorf("lines = %q, want [one two] (the partial third line waits for its newline)", lines)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 8}
	_, _ = b.Write([]byte("hello\n"))
	_, _ = b.Write([]byte("world\n"))
	if got := b.String(); got != "o world" {
		t.Errorf("tail = %q, want the last 8 bytes on one line", got)
	}
}
