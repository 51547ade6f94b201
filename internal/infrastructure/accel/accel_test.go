package accel

import "testing"

func TestOnIn(t *testing.T) {
	for _, tc := range []struct {
		off, name string
		want      bool
	}{
		{"", MCPDirect, true},
		{"all", MCPDirect, false},
		{MCPDirect, MCPDirect, false},
		{MCPDirect, "other", true},
		{" other , mcp-direct", MCPDirect, false},
		{"mcp-directx", MCPDirect, true},
	} {
		if got := OnIn(tc.off, tc.name); got != tc.want {
			t.Errorf("OnIn(%q, %q) = %v, want %v", tc.off, tc.name, got, tc.want)
		}
	}
}

func TestOnReadsTheEnvironment(t *testing.T) {
	t.Setenv(EnvOff, "other")
	if On("other") || !On(MCPDirect) {
		t.Fatalf("On with %s=other: other %v, direct %v", EnvOff, On("other"), On(MCPDirect))
	}
}
