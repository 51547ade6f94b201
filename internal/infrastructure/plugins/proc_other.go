//go:build !linux

package plugins

import "os/exec"

// setProcAttr does nothing here: process groups and parent-death signals are Linux features as
// awf uses them. Close still stops every plugin.
func setProcAttr(*exec.Cmd) {}

func killGroup(int) {}

func waitExit(int) {}
