package activitylog

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Line is the wire form of one activity record: one JSON object per line of activity.jsonl, and
// what `awf activity list -o json` and `awf activity show` print. The domain's activity.Record is
// the concept; this struct pins the field names and their order, which users' scripts read, so a
// renamed domain field never changes the file format.
type Line struct {
	ID         string         `json:"id"`
	Time       time.Time      `json:"time"`
	RunID      string         `json:"run_id,omitempty"`
	Step       string         `json:"step,omitempty"`
	Tool       string         `json:"tool"`
	Source     string         `json:"source,omitempty"`
	Arguments  map[string]any `json:"arguments,omitempty"`
	DurationMS float64        `json:"duration_ms"`
	Outcome    string         `json:"outcome"`
	Error      string         `json:"error,omitempty"`
	// Code is the refusal's or error's code; absent in lines written before awf recorded it.
	Code   string     `json:"code,omitempty"`
	Intent LineIntent `json:"intent"`
	// ToolVariant is, as in the intent seed, the variant the call was made through, in the
	// seed's form (call_tool_read, call_tool_write, call_tool_destructive): the door of a
	// split-mode call or of `awf call tool-<variant>`, the tool's own for a direct call; absent
	// when the call came through none (a tool called by its own name in split mode). It is
	// written from Intent.Variant, which is what is read back.
	ToolVariant string `json:"tool_variant,omitempty"`
	// ToolOwnVariant is the tool's own variant from its annotations, in the same form. A line
	// that has a variant writes it always, "" when the tool is unknown, so that a line without
	// it is one written before it existed, whose tool_variant held the tool's own variant.
	ToolOwnVariant *string      `json:"tool_own_variant,omitempty"`
	TraceID        string       `json:"trace_id,omitempty"`
	Sandbox        *LineSandbox `json:"sandbox,omitempty"`
	// Content summarises the result's non-text blocks: type, MIME type, URI, size.
	Content []tool.ContentSummary `json:"content,omitempty"`
	// Turn is the conversation turn of the call, absent outside conversation steps.
	Turn int `json:"turn,omitempty"`
	// Kind is "network" for a connection through the step's egress proxy, absent for a call.
	Kind string `json:"kind,omitempty"`
	// Network is that connection.
	Network *LineNetwork `json:"network,omitempty"`
	// Approval is the decision on a call held for approval (mcp_proxy.intent.ask).
	Approval *LineApproval `json:"approval,omitempty"`
}

// LineApproval is the wire form of an approval: approve or deny, by api, page, terminal or
// timeout, and when.
type LineApproval struct {
	Decision string    `json:"decision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// LineNetwork is the wire form of one connection attempt (docs/reference/activity-record.md).
type LineNetwork struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Addr     string `json:"address,omitempty"`
	Protocol string `json:"protocol"`
	Method   string `json:"method,omitempty"`
	Path     string `json:"path,omitempty"`
	BytesOut int64  `json:"bytes_out"`
	BytesIn  int64  `json:"bytes_in"`
	Decision string `json:"decision"`
	Rule     string `json:"rule,omitempty"`
}

// LineSandbox is the wire form of how a call was confined (Bash only).
type LineSandbox struct {
	Enforced    bool   `json:"enforced"`
	LandlockABI int    `json:"landlock_abi"`
	Policy      string `json:"policy,omitempty"`
	Network     bool   `json:"network"`
	Reason      string `json:"reason,omitempty"`
}

// LineIntent is the wire form of a record's intent.
type LineIntent struct {
	Variant         string `json:"variant,omitempty"`
	OperationType   string `json:"operation_type,omitempty"`
	DataSensitivity string `json:"data_sensitivity,omitempty"`
	Reason          string `json:"reason,omitempty"`
	Decision        string `json:"decision,omitempty"`
	Warning         string `json:"warning,omitempty"`
}

// LineOf returns the wire form of r.
func LineOf(r activity.Record) Line {
	l := Line{
		ID: r.ID, Time: r.Time, RunID: r.RunID, Step: r.Step, Tool: r.Tool, Source: string(r.Source),
		Arguments: r.Arguments, DurationMS: r.DurationMS, Outcome: string(r.Outcome), Error: r.Error, Code: r.Code,
		ToolVariant: toolVariantWire(r.Intent.Variant),
		Intent: LineIntent{
			Variant: string(r.Intent.Variant), OperationType: r.Intent.OperationType,
			DataSensitivity: r.Intent.DataSensitivity, Reason: r.Intent.Reason,
			Decision: r.Intent.Decision, Warning: r.Intent.Warning,
		},
		TraceID: r.TraceID, Content: r.Content, Turn: r.Turn, Kind: r.Kind,
	}
	if n := r.Network; n != nil {
		w := LineNetwork(*n)
		l.Network = &w
	}
	if a := r.Approval; a != nil {
		l.Approval = &LineApproval{Decision: a.Decision, By: a.By, At: a.At}
	}
	if r.Intent.Variant != "" || r.ToolVariant != "" {
		own := toolVariantWire(r.ToolVariant)
		l.ToolOwnVariant = &own
	}
	if sb := r.Sandbox; sb != nil {
		l.Sandbox = &LineSandbox{Enforced: sb.Enforced, LandlockABI: sb.ABI, Policy: sb.Policy, Network: sb.Network, Reason: sb.Reason}
	}
	return l
}

// toolVariantWire writes a variant as the seed's tool name for it; empty stays empty.
func toolVariantWire(v tool.Variant) string {
	if v == "" {
		return ""
	}
	return tool.SplitToolName(v)
}

// toolVariantOf reads a variant in the seed's form back; a bare variant ("read") is accepted too.
func toolVariantOf(s string) tool.Variant {
	return tool.Variant(strings.TrimPrefix(s, "call_tool_"))
}

// ownVariant is the tool's own variant of a line: tool_own_variant, or for a line written
// before that field existed, its tool_variant.
func (l Line) ownVariant() tool.Variant {
	if l.ToolOwnVariant != nil {
		return toolVariantOf(*l.ToolOwnVariant)
	}
	return toolVariantOf(l.ToolVariant)
}

// LinesOf returns the wire forms of recs, never nil: an empty list prints as [].
func LinesOf(recs []activity.Record) []Line {
	out := make([]Line, 0, len(recs))
	for _, r := range recs {
		out = append(out, LineOf(r))
	}
	return out
}

// Record returns the record l stands for.
func (l Line) Record() activity.Record {
	r := activity.Record{
		ID: l.ID, Time: l.Time, RunID: l.RunID, Step: l.Step, Tool: l.Tool, Source: tool.Source(l.Source),
		Arguments: l.Arguments, DurationMS: l.DurationMS, Outcome: activity.Outcome(l.Outcome), Error: l.Error, Code: l.Code,
		ToolVariant: l.ownVariant(),
		Intent: tool.Intent{
			Variant: tool.Variant(l.Intent.Variant), OperationType: l.Intent.OperationType,
			DataSensitivity: l.Intent.DataSensitivity, Reason: l.Intent.Reason,
			Decision: l.Intent.Decision, Warning: l.Intent.Warning,
		},
		TraceID: l.TraceID, Content: l.Content, Turn: l.Turn, Kind: l.Kind,
	}
	if n := l.Network; n != nil {
		c := activity.Connection(*n)
		r.Network = &c
	}
	if sb := l.Sandbox; sb != nil {
		r.Sandbox = &tool.Confinement{Enforced: sb.Enforced, ABI: sb.LandlockABI, Policy: sb.Policy, Network: sb.Network, Reason: sb.Reason}
	}
	if a := l.Approval; a != nil {
		r.Approval = &activity.Approval{Decision: a.Decision, By: a.By, At: a.At}
	}
	return r
}

// Encode returns r as one line of the activity file, newline included: the JSON of LineOf(r).
func Encode(r activity.Record) ([]byte, error) {
	b, err := json.Marshal(LineOf(r))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Decode parses one line of the activity file (without its newline).
func Decode(line []byte) (activity.Record, error) {
	var l Line
	if err := json.Unmarshal(line, &l); err != nil {
		return activity.Record{}, err
	}
	return l.Record(), nil
}
