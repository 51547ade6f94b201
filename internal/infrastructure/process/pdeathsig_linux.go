package process

import "syscall"

// setPdeathsig asks the kernel to send sig to the child when its parent thread dies.
func setPdeathsig(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }
