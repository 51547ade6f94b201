package rootfs

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// BenchmarkOSRootOpen compares what os.Root adds to a Read: opening and reading a small file
// three directories below the root through os.Root (as the file tools do) and through a plain
// os.Open of the joined path (as they did before), alternating in each round so a load change
// hits both. It reports both p50s and their ratio; the target for Read is at most 5 %
// slower, and this is the open's share of it (a whole Read call also renders the lines).
func BenchmarkOSRootOpen(b *testing.B) {
	root := b.TempDir()
	testkit.WriteBenchFile(b, root)
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 8192)
	testkit.CompareWays(b,
		readVia(b, "plain", buf, func() (io.ReadCloser, error) { return os.Open(filepath.Join(root, testkit.BenchFile)) }),
		readVia(b, "osroot", buf, func() (io.ReadCloser, error) { return r.Open(testkit.BenchFile) }))
}
