//go:build !unix

package cli

import (
	"context"
	"os"
)

// lockFile is a no-op where flock does not exist: calls continuing one session in parallel
// then share its directory unserialised.
func lockFile(ctx context.Context, _ *os.File) error { return ctx.Err() }

func unlockFile(*os.File) error { return nil }
