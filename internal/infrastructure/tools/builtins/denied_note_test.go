package builtins

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// TestDeniedNote checks which note a failed sandboxed call gets: a unix socket refused without
// network gets the socket's note and never the write's, which used to be appended to it.
func TestDeniedNote(t *testing.T) {
	const (
		socketNote = "the kernel refuses every unix socket too"
		writeNote  = "[sandbox: the kernel denied this"
		netNote    = "[sandbox: this step has no network (mcp_proxy.sandbox.network: false) (USER.SANDBOX.DENIED)]"
	)
	offline := &tool.Confinement{Enforced: true, Policy: "write", Network: false}
	online := &tool.Confinement{Enforced: true, Policy: "write", Network: true}
	cases := []struct {
		name      string
		conf      *tool.Confinement
		out       string
		want      []string
		wantNotIn []string
	}{
		{"ssh-add without network", offline, "Error connecting to agent: Permission denied", []string{socketNote, "network: true", "USER.SANDBOX.DENIED"}, []string{writeNote}},
		{"socat without network", offline, "2026/01/01 socat[12] E socket(1, 1, 0): Permission denied", []string{socketNote}, []string{writeNote}},
		{"docker without network", offline, "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Permission denied", []string{socketNote}, []string{writeNote}},
		{"python traceback without network", offline, "  File \"/usr/lib/python3/socket.py\", line 233, in __init__\n    _socket.socket.__init__(self, family, type, proto, fileno)\nPermissionError: [Errno 13] Permission denied", []string{socketNote}, []string{writeNote}},
		{"write without network", offline, "touch: cannot touch '/etc/x': Permission denied", []string{writeNote, "write policy"}, []string{socketNote}},
		{"read-only mount", online, "mkdir: cannot create directory '/usr/x': Read-only file system", []string{writeNote}, []string{socketNote}},
		{"socket and write in one call", offline, "nc: unix connect failed: Permission denied\ntouch: cannot touch 'x': Permission denied", []string{socketNote, writeNote}, nil},
		{"socket with network is the file's own mode", online, "Error connecting to agent: Permission denied", nil, []string{socketNote, writeNote}},
		{"read policy names TMPDIR only", &tool.Confinement{Enforced: true, Policy: "read", Network: true}, "bash: x: Permission denied", []string{"$TMPDIR only (this step allows read)"}, []string{socketNote}},
		{"no network to resolve", offline, "curl: (6) Could not resolve host: example.com", []string{netNote}, []string{socketNote, writeNote}},
		{"unenforced adds nothing", &tool.Confinement{}, "touch: cannot touch 'x': Permission denied", nil, []string{socketNote, writeNote}},
		{"nil confinement", nil, "Permission denied", nil, []string{socketNote, writeNote}},
		{"plain failure", offline, "exit 3", nil, []string{socketNote, writeNote, netNote}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := deniedNote(c.conf, c.out)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("deniedNote = %q, want it to hold %q", got, w)
				}
			}
			for _, w := range c.wantNotIn {
				if strings.Contains(got, w) {
					t.Errorf("deniedNote = %q, must not hold %q", got, w)
				}
			}
		})
	}
}
