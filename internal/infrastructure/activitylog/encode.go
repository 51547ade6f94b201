package activitylog

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/pkg/jsonstr"
)

// appendLine appends r's line (Line's JSON and a newline) to dst without reflection, byte for
// byte what json.Marshal(LineOf(r)) writes (the tests compare them, fuzzed). It reports false,
// leaving dst as it was, for what it does not write itself: an argument value of a type a JSON
// decoder does not make, a float that is not finite, a time that is not UTC or not in years
// 0-9999; Encode then uses json.Marshal, which a record a tool call makes never needs. Every
// call is recorded, so this encoder is on the path of every call.
func appendLine(dst []byte, r activity.Record) ([]byte, bool) {
	start := len(dst)
	fail := func() ([]byte, bool) { return dst[:start], false }
	if r.Time.Location() != time.UTC || r.Time.Year() < 0 || r.Time.Year() > 9999 || !finite(r.DurationMS) {
		return fail()
	}
	dst = append(dst, `{"id":`...)
	dst = jsonstr.Append(dst, r.ID)
	dst = append(dst, `,"time":"`...)
	dst = r.Time.AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	dst = appendField(dst, "run_id", r.RunID)
	dst = appendField(dst, "step", r.Step)
	dst = append(dst, `,"tool":`...)
	dst = jsonstr.Append(dst, r.Tool)
	dst = appendField(dst, "source", string(r.Source))
	if len(r.Arguments) > 0 {
		dst = append(dst, `,"arguments":`...)
		var ok bool
		if dst, ok = appendValue(dst, r.Arguments); !ok {
			return fail()
		}
	}
	dst = append(dst, `,"duration_ms":`...)
	dst = appendFloat(dst, r.DurationMS)
	dst = append(dst, `,"outcome":`...)
	dst = jsonstr.Append(dst, string(r.Outcome))
	dst = appendField(dst, "error", r.Error)
	dst = appendField(dst, "code", r.Code)
	dst = append(dst, `,"intent":{`...)
	mark := len(dst)
	dst = appendField(dst, "variant", string(r.Intent.Variant))
	dst = appendField(dst, "operation_type", r.Intent.OperationType)
	dst = appendField(dst, "data_sensitivity", r.Intent.DataSensitivity)
	dst = appendField(dst, "reason", r.Intent.Reason)
	dst = appendField(dst, "decision", r.Intent.Decision)
	dst = appendField(dst, "warning", r.Intent.Warning)
	if len(dst) > mark {
		dst = slices.Delete(dst, mark, mark+1) // the first field's comma
	}
	dst = append(dst, '}')
	dst = appendField(dst, "tool_variant", toolVariantWire(r.ToolVariant))
	dst = appendField(dst, "trace_id", r.TraceID)
	if sb := r.Sandbox; sb != nil {
		dst = append(dst, `,"sandbox":{"enforced":`...)
		dst = strconv.AppendBool(dst, sb.Enforced)
		dst = append(dst, `,"landlock_abi":`...)
		dst = strconv.AppendInt(dst, int64(sb.ABI), 10)
		dst = appendField(dst, "policy", sb.Policy)
		dst = append(dst, `,"network":`...)
		dst = strconv.AppendBool(dst, sb.Network)
		dst = appendField(dst, "reason", sb.Reason)
		dst = append(dst, '}')
	}
	if len(r.Content) > 0 {
		dst = append(dst, `,"content":[`...)
		for i, c := range r.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendSummary(dst, c)
		}
		dst = append(dst, ']')
	}
	if r.Turn != 0 {
		dst = append(dst, `,"turn":`...)
		dst = strconv.AppendInt(dst, int64(r.Turn), 10)
	}
	return append(dst, '}', '\n'), true
}

// appendField appends `,"key":"value"` unless value is empty (omitempty).
func appendField(dst []byte, key, value string) []byte {
	if value == "" {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return jsonstr.Append(dst, value)
}

func appendSummary(dst []byte, c tool.ContentSummary) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonstr.Append(dst, c.Type)
	dst = appendField(dst, "mime_type", c.MIMEType)
	dst = appendField(dst, "uri", c.URI)
	dst = append(dst, `,"bytes":`...)
	dst = strconv.AppendInt(dst, int64(c.Bytes), 10)
	return append(dst, '}')
}

// appendValue appends a decoded JSON value (what a JSON decoder makes of arguments), false for
// any other type.
func appendValue(dst []byte, v any) ([]byte, bool) {
	switch val := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return jsonstr.Append(dst, val), true
	case bool:
		return strconv.AppendBool(dst, val), true
	case float64:
		if !finite(val) {
			return dst, false
		}
		return appendFloat(dst, val), true
	case map[string]any:
		if val == nil {
			return append(dst, "null"...), true
		}
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstr.Append(dst, k)
			dst = append(dst, ':')
			var ok bool
			if dst, ok = appendValue(dst, val[k]); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case []any:
		if val == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range val {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	default:
		return dst, false
	}
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// appendFloat writes a finite float as encoding/json does: the shortest representation, in
// exponent form below 1e-6 and from 1e21 on, with a one-digit negative exponent not padded.
func appendFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if n := len(dst); format == 'e' && n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1] // e-07 → e-7
		dst = dst[:n-1]
	}
	return dst
}

// marshalLine is the reflective encoding appendLine stands in for.
func marshalLine(r activity.Record) ([]byte, error) {
	b, err := json.Marshal(LineOf(r))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
