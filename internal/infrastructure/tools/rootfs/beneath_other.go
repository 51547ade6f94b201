//go:build !linux

package rootfs

import "io/fs"

// beneathDir has no openat2 outside Linux: the Root uses os.Root for everything
// (beneath_linux.go says why Linux does not).
type beneathDir struct{}

func openBeneathDir(string) *beneathDir { return nil }

func (b *beneathDir) close() {}

func (b *beneathDir) stat(string, string, bool) (fs.FileInfo, bool) { return nil, false }

func (b *beneathDir) openRegular(string, string) (RegularFile, bool, error) { return nil, false, nil }
