package activity

import (
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Redacted returns r with every secret red knows masked in each free-text field: the tool name
// (a model may send anything there), the arguments at any depth, the error, and the intent's
// texts. Ids, times, codes and labels awf itself chose are left alone. A nil red returns r.
func (r Record) Redacted(red *redact.Redactor) Record {
	if red == nil {
		return r
	}
	r.Tool = red.String(r.Tool)
	r.Arguments = red.Map(r.Arguments)
	r.Error = red.String(r.Error)
	r.Intent = RedactIntent(r.Intent, red)
	if r.Network != nil { // a host or path may carry a token a command put there
		n := *r.Network
		n.Host, n.Path, n.Rule = red.String(n.Host), red.String(n.Path), red.String(n.Rule)
		r.Network = &n
	}
	return r
}

// RedactIntent masks the free-text fields of an intent.
func RedactIntent(in tool.Intent, red *redact.Redactor) tool.Intent {
	in.Variant = tool.Variant(red.String(string(in.Variant)))
	in.OperationType = red.String(in.OperationType)
	in.DataSensitivity = red.String(in.DataSensitivity)
	in.Reason = red.String(in.Reason)
	in.Warning = red.String(in.Warning)
	return in
}
