package plugins

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/hashicorp/go-hclog"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// zapHCLog is an hclog.Logger that writes into zap. go-plugin logs through it both its own
// client events (start, exit) and every line the plugin writes to stderr, parsed with its level,
// so a plugin's logs end up in awf's log with the plugin's name and their level kept.
type zapHCLog struct {
	z     *zap.Logger
	name  string
	args  []any
	level *hclog.Level // shared by loggers derived with With/Named, as in hclog
}

// newHCLog returns an hclog.Logger writing to z; level filters before zap's own level.
func newHCLog(z *zap.Logger, name string, level hclog.Level) hclog.Logger {
	return &zapHCLog{z: z, name: name, level: &level}
}

func zapLevel(l hclog.Level) zapcore.Level {
	switch l {
	case hclog.Trace, hclog.Debug:
		return zapcore.DebugLevel
	case hclog.Info, hclog.NoLevel, hclog.Off:
		return zapcore.InfoLevel
	case hclog.Warn:
		return zapcore.WarnLevel
	default:
		return zapcore.ErrorLevel
	}
}

// Log writes one line. hclog's variadic key/value pairs become zap fields; a dangling key gets
// the value "MISSING", as hclog does.
func (l *zapHCLog) Log(level hclog.Level, msg string, args ...any) {
	if level < *l.level || level == hclog.Off {
		return
	}
	ce := l.z.Check(zapLevel(level), msg)
	if ce == nil {
		return
	}
	all := append(append([]any(nil), l.args...), args...)
	fields := make([]zap.Field, 0, len(all)/2+1)
	if l.name != "" {
		fields = append(fields, zap.String("logger", l.name))
	}
	for i := 0; i < len(all); i += 2 {
		key := fmt.Sprint(all[i])
		if i+1 >= len(all) {
			fields = append(fields, zap.String(key, "MISSING"))
			break
		}
		fields = append(fields, zap.Any(key, all[i+1]))
	}
	ce.Write(fields...)
}

func (l *zapHCLog) Trace(msg string, args ...any) { l.Log(hclog.Trace, msg, args...) }
func (l *zapHCLog) Debug(msg string, args ...any) { l.Log(hclog.Debug, msg, args...) }
func (l *zapHCLog) Info(msg string, args ...any)  { l.Log(hclog.Info, msg, args...) }
func (l *zapHCLog) Warn(msg string, args ...any)  { l.Log(hclog.Warn, msg, args...) }
func (l *zapHCLog) Error(msg string, args ...any) { l.Log(hclog.Error, msg, args...) }

func (l *zapHCLog) enabled(level hclog.Level) bool {
	return level >= *l.level && l.z.Core().Enabled(zapLevel(level))
}

func (l *zapHCLog) IsTrace() bool { return l.enabled(hclog.Trace) }
func (l *zapHCLog) IsDebug() bool { return l.enabled(hclog.Debug) }
func (l *zapHCLog) IsInfo() bool  { return l.enabled(hclog.Info) }
func (l *zapHCLog) IsWarn() bool  { return l.enabled(hclog.Warn) }
func (l *zapHCLog) IsError() bool { return l.enabled(hclog.Error) }

func (l *zapHCLog) ImpliedArgs() []any { return append([]any(nil), l.args...) }

func (l *zapHCLog) With(args ...any) hclog.Logger {
	c := *l
	c.args = append(append([]any(nil), l.args...), args...)
	return &c
}

func (l *zapHCLog) Name() string { return l.name }

func (l *zapHCLog) Named(name string) hclog.Logger {
	c := *l
	if c.name != "" {
		c.name += "." + name
	} else {
		c.name = name
	}
	return &c
}

func (l *zapHCLog) ResetNamed(name string) hclog.Logger {
	c := *l
	c.name = name
	return &c
}

func (l *zapHCLog) SetLevel(level hclog.Level) { *l.level = level }
func (l *zapHCLog) GetLevel() hclog.Level      { return *l.level }

func (l *zapHCLog) StandardLogger(opts *hclog.StandardLoggerOptions) *log.Logger {
	return log.New(l.StandardWriter(opts), "", 0)
}

func (l *zapHCLog) StandardWriter(*hclog.StandardLoggerOptions) io.Writer { return lineWriter{l: l} }

// lineWriter logs each write as one info line; it backs StandardLogger.
type lineWriter struct{ l *zapHCLog }

func (w lineWriter) Write(p []byte) (int, error) {
	w.l.Info(strings.TrimRight(string(p), "\r\n"))
	return len(p), nil
}
