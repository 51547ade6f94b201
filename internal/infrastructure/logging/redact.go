package logging

import (
	"go.uber.org/zap/buffer"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/redact"
)

// redactingEncoder masks secrets in every encoded line: the message, every field (strings,
// errors, arrays, objects, stack traces) and the fields a logger was built With. Masking the
// finished line rather than each field means no field type can slip through; the redactor knows
// the JSON-escaped form of each secret value, so values with quotes or newlines are masked in
// JSON lines too.
type redactingEncoder struct {
	zapcore.Encoder
	red *redact.Redactor
}

var bufPool = buffer.NewPool()

// Clone keeps the wrapper around the clone (With builds loggers through it).
func (e redactingEncoder) Clone() zapcore.Encoder {
	return redactingEncoder{Encoder: e.Encoder.Clone(), red: e.red}
}

// EncodeEntry encodes the line, then masks it.
func (e redactingEncoder) EncodeEntry(ent zapcore.Entry, fields []zapcore.Field) (*buffer.Buffer, error) {
	buf, err := e.Encoder.EncodeEntry(ent, fields)
	if err != nil || buf == nil {
		return buf, err
	}
	b := buf.Bytes()
	masked := e.red.Bytes(b)
	if len(b) == 0 || &masked[0] == &b[0] { // nothing masked: Bytes returned its input
		return buf, nil
	}
	out := bufPool.Get()
	_, _ = out.Write(masked)
	buf.Free()
	return out, nil
}

// withRedactor wraps enc when red is set.
func withRedactor(enc zapcore.Encoder, red *redact.Redactor) zapcore.Encoder {
	if red == nil {
		return enc
	}
	return redactingEncoder{Encoder: enc, red: red}
}
