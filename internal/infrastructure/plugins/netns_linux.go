package plugins

import (
	"os"
	"os/exec"
	"syscall"
)

// isolateNetwork starts cmd in fresh user and network namespaces when the host's plugins run
// without network (Options.NoNetwork): the new network namespace has only a loopback, down,
// so TCP and UDP fail, to the outside and to the host's own loopback alike. The user namespace
// is what lets an unprivileged awf create it; the plugin keeps its uid and gid (mapped onto
// themselves) and gains no power outside the namespaces. The go-plugin handshake still works:
// the plugin listens on a unix socket in $TMPDIR, reached through the filesystem, which a
// network namespace does not separate; stdio MCP servers talk over pipes. Call it after
// setProcAttr, whose attributes it keeps.
func (h *Host) isolateNetwork(cmd *exec.Cmd) error {
	if !h.opts.NoNetwork {
		return nil
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	return nil
}
