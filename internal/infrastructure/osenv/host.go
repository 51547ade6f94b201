package osenv

import (
	"os"
	"os/user"
	"path/filepath"
)

// HostInfo is what the run engine shows as .awf and .context: the reference awf's XDG-based
// directories, the working directory, the user and the host name.
type HostInfo struct {
	AWF        map[string]string
	WorkingDir string
	User       string
	Hostname   string
}

// Host reads HostInfo from this process: XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_CACHE_HOME
// (else ~/.config, ~/.local/share and ~/.cache), USER (else the account's name).
func Host() HostInfo {
	home, _ := os.UserHomeDir()
	xdg := func(env, fallback string) string {
		if d := os.Getenv(env); filepath.IsAbs(d) {
			return filepath.Join(d, "awf")
		}
		return filepath.Join(home, fallback, "awf")
	}
	config, data := xdg("XDG_CONFIG_HOME", ".config"), xdg("XDG_DATA_HOME", ".local/share")
	h := HostInfo{AWF: map[string]string{
		"config_dir":    config,
		"data_dir":      data,
		"cache_dir":     xdg("XDG_CACHE_HOME", ".cache"),
		"prompts_dir":   filepath.Join(config, "prompts"),
		"scripts_dir":   filepath.Join(config, "scripts"),
		"skills_dir":    filepath.Join(config, "skills"),
		"workflows_dir": filepath.Join(config, "workflows"),
		"roles_dir":     filepath.Join(config, "roles"),
		"plugins_dir":   filepath.Join(data, "plugins"),
	}}
	h.WorkingDir, _ = os.Getwd()
	h.Hostname, _ = os.Hostname()
	h.User = os.Getenv("USER")
	if h.User == "" {
		if u, err := user.Current(); err == nil {
			h.User = u.Username
		}
	}
	return h
}
