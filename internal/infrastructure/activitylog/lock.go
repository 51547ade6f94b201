package activitylog

import (
	"context"
	"os"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/filelock"
)

// writeLock is the wait between tries for the log's lock: it is only ever held for one write,
// so waits are short. Where flock does not exist there is no lock; a single write on an
// O_APPEND file still keeps lines whole on local file systems.
var writeLock = filelock.Backoff{First: 50 * time.Microsecond, Max: 5 * time.Millisecond}

// lockFile takes the exclusive lock on the log file f for one write, giving up when ctx ends.
func lockFile(ctx context.Context, f *os.File) error { return filelock.Lock(ctx, f, writeLock) }

func unlockFile(f *os.File) error { return filelock.Unlock(f) }
