package process

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkCommandTrue measures what containment adds to a command step's `sh -c true`: the
// reaper's re-execution of the binary and its extra fork.
func BenchmarkCommandTrue(b *testing.B) {
	b.Run("group", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/sh", "-c", "true")
			Prepare(cmd)
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			if err := Wait(context.Background(), cmd, time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("contained", func(b *testing.B) {
		for b.Loop() {
			if err := Run(context.Background(), exec.Command("/bin/sh", "-c", "true"), time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
}
