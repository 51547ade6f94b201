package sandbox

import (
	"slices"
	"strings"
)

// sideDoorVars name a running agent, daemon or display that acts with the user's authority
// when a process talks to it: an ssh or gpg agent signs as the user, a D-Bus session reaches
// the keyring and the user's systemd, docker and podman are root on the host, a display takes
// keystrokes, an editor's IPC handle opens files and runs its commands, an askpass helper hands
// out passwords, a Kerberos cache is a ticket. Bash's environment drops them (the sandbox hides
// the sockets they name as well), unless a step passes one through with env_passthrough.
var sideDoorVars = map[string]bool{
	"SSH_AUTH_SOCK": true, "SSH_AGENT_PID": true, "SSH_ASKPASS": true, "GIT_ASKPASS": true,
	"GPG_AGENT_INFO": true, "DBUS_SESSION_BUS_ADDRESS": true, "DBUS_SYSTEM_BUS_ADDRESS": true,
	"DOCKER_HOST": true, "DOCKER_CONTEXT": true, "CONTAINER_HOST": true, "BUILDKIT_HOST": true,
	"KRB5CCNAME": true, "DISPLAY": true, "WAYLAND_DISPLAY": true, "XAUTHORITY": true,
	"VSCODE_IPC_HOOK_CLI": true, "VSCODE_GIT_IPC_HANDLE": true, "VSCODE_GIT_ASKPASS_MAIN": true,
	"VSCODE_GIT_ASKPASS_NODE": true, "TMUX": true, "KITTY_LISTEN_ON": true, "NVIM": true,
	"NVIM_LISTEN_ADDRESS": true, "EMACS_SOCKET_NAME": true, "PULSE_SERVER": true,
}

// SideDoorVar says whether the variable name points at an agent, daemon or display (see
// sideDoorVars): Bash's environment must not carry it unless the step passes it through.
func SideDoorVar(name string) bool { return sideDoorVars[name] }

// DropSideDoors is env ("NAME=value" entries) without the SideDoorVar variables, except those
// named in keep (a step's env_passthrough).
func DropSideDoors(env, keep []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !sideDoorVars[name] || slices.Contains(keep, name) {
			out = append(out, kv)
		}
	}
	return out
}
