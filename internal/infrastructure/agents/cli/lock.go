package cli

import (
	"context"
	"os"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/filelock"
)

// sessionLock is the wait between tries for a session directory's lock: the holder is another
// agent call, which may take minutes. Where flock does not exist there is no lock, and calls
// continuing one session in parallel share its directory unserialised.
var sessionLock = filelock.Backoff{First: time.Millisecond, Max: 200 * time.Millisecond}

// lockFile takes the exclusive lock on f, giving up when ctx ends.
func lockFile(ctx context.Context, f *os.File) error { return filelock.Lock(ctx, f, sessionLock) }

func unlockFile(f *os.File) error { return filelock.Unlock(f) }
