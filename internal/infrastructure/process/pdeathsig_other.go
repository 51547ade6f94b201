//go:build !linux

package process

import "syscall"

// setPdeathsig does nothing where the kernel has no parent-death signal (macOS): a child
// outlives awf's crash there, the reason the process guide names Linux for containment.
func setPdeathsig(*syscall.SysProcAttr, syscall.Signal) {}
