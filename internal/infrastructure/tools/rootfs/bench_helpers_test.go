package rootfs

import (
	"io"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// readVia is a way that opens the bench file with open and reads it to its end into buf.
func readVia(b *testing.B, name string, buf []byte, open func() (io.ReadCloser, error)) testkit.Way {
	return testkit.Way{Name: name, Call: func() {
		f, err := open()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(f, buf[:3600]); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}}
}
