package tool

// Variant is how a call is made: through the read, write or destructive door. In split mode the
// agent picks the door (call_tool_read …); otherwise awf derives it from the annotations.
type Variant string

// The three variants.
const (
	VariantRead        Variant = "read"
	VariantWrite       Variant = "write"
	VariantDestructive Variant = "destructive"
)

// Variants lists them in order of increasing power.
var Variants = []Variant{VariantRead, VariantWrite, VariantDestructive}

// Valid reports whether v is one of the three.
func (v Variant) Valid() bool {
	return v == VariantRead || v == VariantWrite || v == VariantDestructive
}

// CallWith derives the variant a tool must be called with from its annotations:
// destructiveHint true → destructive; readOnlyHint true → read; otherwise write. When both hints
// are true the more restrictive wins (destructive).
func CallWith(a Annotations) Variant {
	switch {
	case a.Destructive():
		return VariantDestructive
	case a.ReadOnly():
		return VariantRead
	default:
		return VariantWrite
	}
}

// Intent is what is known about why a call is made. It travels with every call into the span,
// the log line and the activity record.
type Intent struct {
	Variant         Variant
	OperationType   string
	DataSensitivity string
	Reason          string
	Decision        string
	Warning         string
}
