package tool

import (
	"strings"
	"testing"
)

func TestSource(t *testing.T) {
	s := PluginSource("notes")
	if s != "plugin:notes" || s.Plugin() != "notes" {
		t.Fatalf("PluginSource(notes) = %q (plugin %q)", s, s.Plugin())
	}
	if p := BuiltinSource.Plugin(); p != "" {
		t.Fatalf("builtin source names plugin %q", p)
	}
}

func TestAnnotationsPredicates(t *testing.T) {
	yes, no := Bool(true), Bool(false)
	tests := []struct {
		name                         string
		a                            Annotations
		zero, hints, ro, destructive bool
	}{
		{"nothing", Annotations{}, true, false, false, false},
		{"title only", Annotations{Title: "T"}, false, false, false, false},
		{"read-only true", Annotations{ReadOnlyHint: yes}, false, true, true, false},
		{"read-only false", Annotations{ReadOnlyHint: no}, false, true, false, false},
		{"destructive true", Annotations{DestructiveHint: yes}, false, true, false, true},
		{"destructive false", Annotations{DestructiveHint: no}, false, true, false, false},
		{"idempotent", Annotations{IdempotentHint: no}, false, true, false, false},
		{"open world", Annotations{OpenWorldHint: no}, false, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.a
			if got := a.IsZero(); got != tt.zero {
				t.Errorf("IsZero = %v", got)
			}
			if got := a.HasHints(); got != tt.hints {
				t.Errorf("HasHints = %v", got)
			}
			if got := a.ReadOnly(); got != tt.ro {
				t.Errorf("ReadOnly = %v", got)
			}
			if got := a.Destructive(); got != tt.destructive {
				t.Errorf("Destructive = %v", got)
			}
		})
	}
}

func TestResults(t *testing.T) {
	if r := Text("ok"); r.IsError || r.JoinedText() != "ok" || len(r.Content) != 1 || r.Content[0].Type != "text" {
		t.Fatalf("Text = %+v", r)
	}
	if r := Error("bad"); !r.IsError || r.JoinedText() != "bad" {
		t.Fatalf("Error = %+v", r)
	}
	r := Result{Content: []Content{{Type: "text", Text: "a"}, {Type: "text", Text: "b"}, {Type: "text", Text: "c"}}}
	if got := r.JoinedText(); got != "a\nb\nc" {
		t.Fatalf("JoinedText = %q", got)
	}
	if got := (Result{}).JoinedText(); got != "" {
		t.Fatalf("empty JoinedText = %q", got)
	}
}

func TestClip(t *testing.T) {
	exact := strings.Repeat("x", maxEchoed)
	multi := "a" + strings.Repeat("é", 40) // rune starts at odd offsets: byte 64 is mid-rune
	tests := []struct {
		in, want string
	}{
		{"short", "short"},
		{exact, exact},
		{exact + "y", exact + "…"},
		{multi, "a" + strings.Repeat("é", 31) + "…"},
		{strings.Repeat("\x80", 100), "…"}, // no rune start at all: cut to nothing, no panic
	}
	for _, tt := range tests {
		if got := clip(tt.in); got != tt.want {
			t.Errorf("clip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitToolNameOfUnknownVariant(t *testing.T) {
	if got := SplitToolName("sideways"); got != "call_tool_sideways" {
		t.Fatalf("SplitToolName(sideways) = %q", got)
	}
}
