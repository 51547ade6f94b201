package tool

import (
	"strings"
	"testing"
)

func TestPluginToolName(t *testing.T) {
	for _, tc := range []struct{ plugin, op, want string }{
		{"fs", "read", "fs_read"},
		{"fs", "read.file/x-azAZ09", "fs_read_file_x-azAZ09"},
		{"my-plugin", "get_all", "my-plugin_get_all"},
		{"n", "é ü", "n____"},
		{"a", "", "a_"},
		{"`{@[", "/:", "_______"},
	} {
		if got := PluginToolName(tc.plugin, tc.op); got != tc.want {
			t.Errorf("PluginToolName(%q, %q) = %q, want %q", tc.plugin, tc.op, got, tc.want)
		}
	}
}

func TestMaxCLIToolNameIsTheCLIsLimit(t *testing.T) {
	if MaxCLIToolName != 64 {
		t.Fatalf("MaxCLIToolName = %d, want the 64 the agent CLIs accept", MaxCLIToolName)
	}
	if n := PluginToolName(strings.Repeat("p", 31), strings.Repeat("o", 32)); len(n) != MaxCLIToolName {
		t.Fatalf("a 31-character plugin and a 32-character operation make %d characters", len(n))
	}
}
