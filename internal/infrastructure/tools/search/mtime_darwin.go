package search

import "syscall"

// statMtime is a stat's modification time in nanoseconds (Darwin names the field Mtimespec).
func statMtime(st *syscall.Stat_t) int64 { return st.Mtimespec.Nano() }
