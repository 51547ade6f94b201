//go:build linux

package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
	"github.com/awf-dev/awf/tests/testkit"
)

// BenchmarkReadConfinement measures the target directly: a small Read three directories
// below the root, confined through openat2 (what New picks on Linux), confined through os.Root
// alone (the fallback), and unconfined (readUnconfined: the same call with the open the tools
// made before os.Root), alternating in each round so a load change hits all three. It reports
// each p50 and the ratios to unconfined; the target is at most 1.05 for the confined Read.
func BenchmarkReadConfinement(b *testing.B) {
	root := b.TempDir()
	testkit.WriteBenchFile(b, root)
	p := newBenchProvider(b, root)
	if !p.root.Openat2() {
		b.Skip("openat2 is not available here: the Root uses os.Root only")
	}
	viaRoot := newBenchProvider(b, root)
	viaRoot.root.Close()
	plain, err := rootfs.OpenPlain(viaRoot.Root())
	if err != nil {
		b.Fatal(err)
	}
	viaRoot.root = plain
	args, _ := json.Marshal(map[string]any{"file_path": testkit.BenchFile})
	ctx := context.Background()
	read := func(name string, call func() tool.Result) testkit.Way {
		return testkit.Way{Name: name, Call: func() {
			if res := call(); res.IsError {
				b.Fatal(res.JoinedText())
			}
		}}
	}
	testkit.CompareWays(b,
		read("unconfined", func() tool.Result { return readUnconfined(p, ctx, args) }),
		read("openat2", func() tool.Result { return p.callRead(ctx, args) }),
		read("osroot", func() tool.Result { return viaRoot.callRead(ctx, args) }))
}

// readUnconfined is callRead with the default window and the open of the tools before os.Root:
// the path joined to the root, stat so that a FIFO is not opened, open, fstat.
func readUnconfined(p *Provider, ctx context.Context, raw json.RawMessage) tool.Result {
	var a readArgs
	if err := decodeArgs(raw, &a, "file_path"); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	path := filepath.Join(p.root.Path(), a.FilePath)
	fi, err := os.Stat(path)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	if err := rootfs.RequireRegular(path, fi); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	defer f.Close()
	if fi, err = f.Stat(); err == nil {
		err = rootfs.RequireRegular(path, fi)
	}
	if err != nil {
		return tool.Error(fmt.Sprint("Read: ", err))
	}
	out, err := readLines(ctx, f, path, 1, readDefaultLimit, p.maxOut)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	return tool.Text(out)
}
