//go:build !unix

package filelock

import (
	"context"
	"os"
)

// Lock does nothing where flock does not exist but report ctx's error; callers say what that
// leaves unserialised.
func Lock(ctx context.Context, _ *os.File, _ Backoff) error { return ctx.Err() }

// Unlock does nothing where flock does not exist.
func Unlock(*os.File) error { return nil }
