package sandbox

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/infrastructure/pluginsock"
)

// homeStores are the credential stores under a home directory the sandbox hides by default:
// keys, cloud and registry logins, the agent CLIs' own logins. A step opens one with
// `sandbox.readable` (docs/reference/yaml.md).
var homeStores = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".config/gh", ".kube",
	".docker/config.json", ".npmrc", ".pypirc", ".netrc", ".git-credentials",
	".config/git/credentials", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
	".terraform.d/credentials.tfrc.json", ".vault-token", ".pgpass", ".my.cnf", ".password-store",
	".local/share/keyrings", ".config/rclone/rclone.conf", ".s3cfg", ".boto", ".oci",
	".huggingface/token", ".cache/huggingface/token",
	".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
	".local/share/opencode/auth.json",
	// and the sockets of docker engines run by the user (Docker Desktop, colima, rootless).
	".docker/desktop/docker.sock", ".docker/run/docker.sock", ".colima", ".lima",
}

// envStores are variables naming a credential store elsewhere, with the file inside it when the
// variable names a directory.
var envStores = []struct{ name, file string }{
	{"AWS_SHARED_CREDENTIALS_FILE", ""}, {"GOOGLE_APPLICATION_CREDENTIALS", ""},
	{"GNUPGHOME", ""}, {"CLOUDSDK_CONFIG", ""}, {"GH_CONFIG_DIR", ""}, {"AZURE_CONFIG_DIR", ""},
	{"DOCKER_CONFIG", "config.json"}, {"NPM_CONFIG_USERCONFIG", ""}, {"npm_config_userconfig", ""},
	{"CLAUDE_CONFIG_DIR", ".credentials.json"}, {"CODEX_HOME", "auth.json"},
}

// daemonSockets are where daemons that act with the user's (or root's) authority listen: the
// X server (keystrokes into any window), docker and podman (root on the host). The user's
// runtime directory, hidden whole, holds the session bus, the user's systemd (which starts
// anything outside the sandbox), the keyring and gpg-agent sockets, wayland and more.
var daemonSockets = []string{"/tmp/.X11-unix", "/run/docker.sock", "/var/run/docker.sock", "/run/podman/podman.sock"}

// HiddenPaths are the paths a Bash call in root cannot see (each covered by an empty read-only
// directory or file where it exists): the credential stores of the user's home directories
// and of the variables naming one, the sockets of agents and daemons (those SSH_AUTH_SOCK,
// GPG_AGENT_INFO, DBUS_SESSION_BUS_ADDRESS, DOCKER_HOST and CONTAINER_HOST name, the user's
// runtime directory, docker's, the X server's), the directory of awf's plugin sockets, and
// awf's run directories (.awf/runs in root and above it), which keep earlier runs' inputs and
// outputs in clear. readable ("~/", "$VAR" and root-relative forms allowed) are left visible;
// where one lies inside a hidden directory, that directory's other entries are hidden instead,
// and so for root and the writable paths, which must stay reachable. Read, Grep and Glob refuse
// the same paths (Protects(HiddenPaths(...), path)).
func HiddenPaths(root string, writable, readable []string) []string {
	return hiddenPaths(root, append([]string{root}, writable...), readable)
}

// hiddenFor is the Hidden of a call under p, its temp directory kept reachable.
func hiddenFor(p Policy) []string {
	return hiddenPaths(p.Root, append([]string{p.Root, p.TmpDir}, p.Writable...), p.Readable)
}

func hiddenPaths(root string, reach, readable []string) []string {
	open := make([]string, 0, len(readable))
	for _, r := range readable {
		if r = ExpandPath(r, root); r != "" {
			open = append(open, r)
		}
	}
	for i, r := range reach {
		reach[i] = filepath.Clean(r)
	}
	var out []string
	for _, c := range candidates(root) {
		out = appendHidden(out, c, open, reach)
	}
	return out
}

// ExpandPath is a readable path as the step wrote it made absolute: "~/" is the home
// directory, $VAR and ${VAR} are expanded, a relative path is relative to root.
func ExpandPath(p, root string) string {
	p = os.ExpandEnv(p)
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		p = home + p[1:]
	}
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return filepath.Clean(p)
}

// appendHidden adds c to out unless it is opened or lies inside an opened path; where an opened
// or reached path lies inside c, c's entries are considered one by one instead.
func appendHidden(out []string, c string, open, reach []string) []string {
	for _, o := range open {
		if o == c || strictlyUnder(c, o) {
			return out
		}
	}
	for _, r := range reach {
		if r == c {
			return out
		}
	}
	if !holdsAny(c, open) && !holdsAny(c, reach) {
		return append(out, c)
	}
	ents, err := os.ReadDir(c)
	if err != nil {
		return out
	}
	for _, e := range ents {
		out = appendHidden(out, filepath.Join(c, e.Name()), open, reach)
	}
	return out
}

// candidates are every path HiddenPaths considers, existing or not, once each.
func candidates(root string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) && !seen[filepath.Clean(p)] {
			seen[filepath.Clean(p)] = true
			out = append(out, filepath.Clean(p))
		}
	}
	for _, home := range homes() {
		for _, s := range homeStores {
			add(filepath.Join(home, s))
		}
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		for _, s := range []string{"gcloud", "gh", "git/credentials"} {
			add(filepath.Join(xdg, s))
		}
	}
	for _, e := range envStores {
		if v := os.Getenv(e.name); v != "" {
			add(filepath.Join(v, e.file))
		}
	}
	for _, k := range strings.Split(os.Getenv("KUBECONFIG"), ":") {
		add(k)
	}
	for _, s := range agentSockets() {
		add(s)
	}
	for d := filepath.Clean(root); ; d = filepath.Dir(d) {
		add(filepath.Join(d, ".awf", "runs"))
		if filepath.Dir(d) == d {
			break
		}
	}
	return out
}

// agentSockets are the sockets and socket directories of agents and daemons, and awf's plugin
// socket directory.
func agentSockets() []string {
	out := append([]string{pluginsock.Dir(), "/run/user/" + strconv.Itoa(os.Getuid())}, daemonSockets...)
	out = append(out, os.Getenv("XDG_RUNTIME_DIR"), os.Getenv("SSH_AUTH_SOCK"))
	if gpg, _, _ := strings.Cut(os.Getenv("GPG_AGENT_INFO"), ":"); gpg != "" {
		out = append(out, gpg)
	}
	for _, a := range strings.Split(os.Getenv("DBUS_SESSION_BUS_ADDRESS"), ";") {
		for _, kv := range strings.Split(strings.TrimPrefix(a, "unix:"), ",") {
			if p, ok := strings.CutPrefix(kv, "path="); ok {
				out = append(out, p)
			}
		}
	}
	for _, name := range []string{"DOCKER_HOST", "CONTAINER_HOST"} {
		if p, ok := strings.CutPrefix(os.Getenv(name), "unix://"); ok {
			out = append(out, p)
		}
	}
	return out
}

// homes are $HOME and the user's home directory in the password database, when they differ.
func homes() []string {
	out := []string{}
	if h := os.Getenv("HOME"); h != "" {
		out = append(out, h)
	}
	if h := passwdHome(); h != "" && (len(out) == 0 || out[0] != h) {
		out = append(out, h)
	}
	return out
}

var passwdHome = sync.OnceValue(func() string {
	u, err := user.Current()
	if err != nil {
		return ""
	}
	return u.HomeDir
})

// holdsAny says whether one of paths lies strictly beneath dir.
func holdsAny(dir string, paths []string) bool {
	for _, p := range paths {
		if strictlyUnder(p, dir) {
			return true
		}
	}
	return false
}

func strictlyUnder(path, dir string) bool {
	return dir != "" && strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
