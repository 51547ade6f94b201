package osenv

import (
	"path/filepath"
	"testing"
)

func TestHost(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USER", "ann")
	t.Setenv("XDG_CONFIG_HOME", "/xdg/config")
	t.Setenv("XDG_DATA_HOME", "relative/is/ignored")
	t.Setenv("XDG_CACHE_HOME", "")
	h := Host()
	want := map[string]string{
		"config_dir":    "/xdg/config/awf",
		"scripts_dir":   "/xdg/config/awf/scripts",
		"prompts_dir":   "/xdg/config/awf/prompts",
		"data_dir":      filepath.Join(home, ".local/share/awf"),
		"plugins_dir":   filepath.Join(home, ".local/share/awf/plugins"),
		"cache_dir":     filepath.Join(home, ".cache/awf"),
		"workflows_dir": "/xdg/config/awf/workflows",
	}
	for k, v := range want {
		if h.AWF[k] != v {
			t.Errorf("%s = %q, want %q", k, h.AWF[k], v)
		}
	}
	if h.User != "ann" || h.WorkingDir == "" || h.Hostname == "" {
		t.Errorf("host = %+v", h)
	}
	t.Setenv("USER", "")
	if Host().User == "" {
		t.Error("no user without $USER")
	}
}
