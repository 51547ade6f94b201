package main

import (
	"io"
	"os"
	"sync"

	"github.com/awf-dev/awf/internal/domain/redact"
)

// secrets is the process's one redactor, built from its environment on first use. Every sink
// of this process masks with it: the log, the spans, the activity records and what awf prints.
// A run adds the variables its steps name in api_key_env (usecase.Run, mcpserve.Build).
var secrets = sync.OnceValue(func() *redact.Redactor { return redact.New(os.Environ()) })

// redactingWriter masks secrets in each write before it reaches the terminal. awf writes whole
// lines or whole documents, so a secret is never split across two writes; step output is masked
// before it is split into lines (textObserver).
type redactingWriter struct {
	w   io.Writer
	red *redact.Redactor
}

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := r.w.Write(r.red.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap is the writer underneath, so the logger can still tell a terminal from a file.
func (r redactingWriter) Unwrap() io.Writer { return r.w }
