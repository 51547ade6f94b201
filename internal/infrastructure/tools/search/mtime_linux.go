package search

import "syscall"

// statMtime is a stat's modification time in nanoseconds (Linux names the field Mtim).
func statMtime(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
