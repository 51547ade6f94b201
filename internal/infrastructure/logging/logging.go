// Package logging builds awf's zap logger: short human lines on the terminal, full JSON lines in
// the run's log file, so the terminal stays readable and the file stays greppable.
package logging

import (
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// Options select where logs go.
type Options struct {
	// Console receives human-readable lines at ConsoleLevel and above; nil disables it.
	Console      io.Writer
	ConsoleLevel zapcore.Level
	// File, when set, receives every line at debug level and above as JSON (created 0600).
	File string
	// Redactor masks secrets in every line of both outputs; nil masks nothing.
	Redactor *redact.Redactor
}

// New returns the logger and a closer that syncs and closes the file.
func New(opts Options) (*zap.Logger, func() error, error) {
	var cores []zapcore.Core
	if opts.Console != nil {
		enc := zap.NewDevelopmentEncoderConfig()
		enc.TimeKey = ""
		enc.CallerKey = ""
		enc.EncodeLevel = zapcore.CapitalColorLevelEncoder
		console := opts.Console
		if u, ok := console.(interface{ Unwrap() io.Writer }); ok {
			console = u.Unwrap()
		}
		if f, ok := console.(*os.File); !ok || !isTerminal(f) {
			enc.EncodeLevel = zapcore.CapitalLevelEncoder
		}
		cores = append(cores, zapcore.NewCore(withRedactor(zapcore.NewConsoleEncoder(enc), opts.Redactor), zapcore.Lock(zapcore.AddSync(opts.Console)), opts.ConsoleLevel))
	}
	closer := func() error { return nil }
	if opts.File != "" {
		// Never through a link planted in the run directory (privatefs.OpenAppend).
		f, err := privatefs.OpenAppend(opts.File)
		if err != nil {
			return nil, nil, err
		}
		enc := zap.NewProductionEncoderConfig()
		enc.EncodeTime = zapcore.RFC3339NanoTimeEncoder
		cores = append(cores, zapcore.NewCore(withRedactor(zapcore.NewJSONEncoder(enc), opts.Redactor), zapcore.Lock(f), zapcore.DebugLevel))
		closer = func() error {
			_ = f.Sync()
			return f.Close()
		}
	}
	if len(cores) == 0 {
		return zap.NewNop(), closer, nil
	}
	return zap.New(zapcore.NewTee(cores...)), closer, nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
