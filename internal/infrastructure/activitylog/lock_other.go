//go:build !unix

package activitylog

import (
	"context"
	"os"
)

// lockFile is a no-op where flock does not exist; a single write on an O_APPEND file still keeps
// lines whole on local file systems.
func lockFile(ctx context.Context, _ *os.File) error { return ctx.Err() }

func unlockFile(*os.File) error { return nil }
