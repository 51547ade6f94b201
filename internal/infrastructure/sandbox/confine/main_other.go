//go:build !linux

package confine

import "os"

// Main refuses on a system without the Linux sandbox: awf starts no helper there (the
// sandbox package reports the kernel cannot sandbox), so reaching this is a mistake.
func Main([]string) int {
	_, _ = os.Stderr.WriteString("awf: the Bash sandbox needs Linux\n")
	return 126
}
