package tool

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

var (
	annReadOnly    = Annotations{ReadOnlyHint: Bool(true)}
	annDestructive = Annotations{DestructiveHint: Bool(true)}
	annBoth        = Annotations{ReadOnlyHint: Bool(true), DestructiveHint: Bool(true)}
	annWriter      = Annotations{ReadOnlyHint: Bool(false), DestructiveHint: Bool(false)}
	annNone        = Annotations{}
	annTitleOnly   = Annotations{Title: "Just a title", OpenWorldHint: Bool(true)}
	// anyAnnotations stands for the seeds' "any" column.
	anyAnnotations = map[string]Annotations{"readOnly": annReadOnly, "destructive": annDestructive, "both": annBoth, "writer": annWriter, "none": annNone}
)

func strict() RuleSettings { return RuleSettings{Strict: true} }

func nested(v Variant, op string) Declaration {
	return Declaration{Variant: v, Nested: true, OperationType: op}
}

type ruleCase struct {
	name     string
	ann      Annotations
	settings RuleSettings
	decl     Declaration
	verdict  Verdict
	code     string
	text     string // exact Message (refuse) or Warning (warn)
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(RuleInput{Tool: "github:delete_repo", Annotations: tt.ann, Settings: tt.settings, Declared: tt.decl})
			if d.Verdict != tt.verdict || d.Code != tt.code {
				t.Fatalf("Decide = %+v, want verdict %s code %q", d, tt.verdict, tt.code)
			}
			got := d.Message
			if tt.verdict == VerdictWarn {
				got = d.Warning
			}
			if got != tt.text {
				t.Errorf("text = %q\nwant   %q", got, tt.text)
			}
			if d.Allowed() != (tt.verdict != VerdictRefuse) {
				t.Errorf("Allowed() = %v for verdict %s", d.Allowed(), d.Verdict)
			}
			want := tt.decl.Variant
			if want == "" {
				want = CallWith(tt.ann)
			}
			if d.Variant != want {
				t.Errorf("Variant = %q, want %q", d.Variant, want)
			}
		})
	}
}

const (
	serverMismatch = "Tool 'github:delete_repo' is marked destructive by server, use call_tool_destructive"
	readOnlyWarn   = "Tool 'github:delete_repo' is marked read-only by server, call_tool_read is enough"
)

// TestSeed002ValidationMatrix has one case per row of the "Validation Matrix" of seed 002 (the
// nested, two-key form); "any" rows are expanded over every kind of annotation.
func TestSeed002ValidationMatrix(t *testing.T) {
	s := strict()
	req := RuleSettings{Strict: true, RequireDeclaration: true}
	cases := []ruleCase{
		{"002 row1 read/read/readOnlyHint=true ALLOW", annReadOnly, s, nested(VariantRead, "read"), VerdictAllow, "", ""},
		{"002 row2 read/read/destructiveHint=true REJECT server mismatch", annDestructive, s, nested(VariantRead, "read"), VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"002 row3 read/read/no annotation ALLOW trust agent", annNone, s, nested(VariantRead, "read"), VerdictAllow, "", ""},
		{"002 row5 write/write/readOnlyHint=true WARN+ALLOW", annReadOnly, s, nested(VariantWrite, "write"), VerdictWarn, fault.UserIntentOverlyCautious, readOnlyWarn},
		{"002 row6 write/write/destructiveHint=true REJECT server mismatch", annDestructive, s, nested(VariantWrite, "write"), VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"002 row7 write/write/no annotation ALLOW", annNone, s, nested(VariantWrite, "write"), VerdictAllow, "", ""},
	}
	for kind, a := range anyAnnotations {
		cases = append(cases,
			ruleCase{"002 row4 read/write/any=" + kind + " REJECT intent mismatch", a, s, nested(VariantRead, "write"), VerdictRefuse, fault.UserIntentMismatch,
				"Intent mismatch: tool is call_tool_read but intent declares write"},
			ruleCase{"002 row8 write/destructive/any=" + kind + " REJECT intent mismatch", a, s, nested(VariantWrite, "destructive"), VerdictRefuse, fault.UserIntentMismatch,
				"Intent mismatch: tool is call_tool_write but intent declares destructive"},
			ruleCase{"002 row9 destructive/destructive/any=" + kind + " ALLOW most permissive", a, s, nested(VariantDestructive, "destructive"), VerdictAllow, "", ""},
			ruleCase{"002 row10 destructive/read/any=" + kind + " REJECT intent mismatch", a, s, nested(VariantDestructive, "read"), VerdictRefuse, fault.UserIntentMismatch,
				"Intent mismatch: tool is call_tool_destructive but intent declares read"},
		)
		for _, v := range Variants {
			cases = append(cases,
				ruleCase{"002 row11 " + string(v) + "/missing intent/any=" + kind + " REJECT intent required", a, req, Declaration{Variant: v},
					VerdictRefuse, fault.UserIntentMissingIntent, "intent parameter is required for " + SplitToolName(v)},
				ruleCase{"002 row11 " + string(v) + "/missing operation_type/any=" + kind + " REJECT intent required", a, req,
					Declaration{Variant: v, Nested: true, Reason: "why"}, VerdictRefuse, fault.UserIntentMissingOperationType, "intent.operation_type is required"},
			)
		}
	}
	runRuleCases(t, cases)
}

// TestSeed003ValidationMatrix has one case per row of the "Server Annotation Validation" table
// of seed 003: the flat form, where the operation type is inferred from the variant.
func TestSeed003ValidationMatrix(t *testing.T) {
	s := strict()
	flat := func(v Variant) Declaration {
		return Declaration{Variant: v, DataSensitivity: "private", Reason: "audit"}
	}
	cases := []ruleCase{
		{"003 row1 call_tool_read/readOnlyHint=true ALLOW", annReadOnly, s, flat(VariantRead), VerdictAllow, "", ""},
		{"003 row2 call_tool_read/destructiveHint=true REJECT", annDestructive, s, flat(VariantRead), VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"003 row3 call_tool_read/no annotation ALLOW trust agent", annNone, s, flat(VariantRead), VerdictAllow, "", ""},
		{"003 row4 call_tool_write/readOnlyHint=true WARN+ALLOW", annReadOnly, s, flat(VariantWrite), VerdictWarn, fault.UserIntentOverlyCautious, readOnlyWarn},
		{"003 row5 call_tool_write/destructiveHint=true REJECT", annDestructive, s, flat(VariantWrite), VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"003 row6 call_tool_write/no annotation ALLOW", annNone, s, flat(VariantWrite), VerdictAllow, "", ""},
	}
	for kind, a := range anyAnnotations {
		cases = append(cases, ruleCase{"003 row7 call_tool_destructive/any=" + kind + " ALLOW most permissive", a, s, flat(VariantDestructive), VerdictAllow, "", ""})
	}
	runRuleCases(t, cases)
}

func TestRuleBeyondTheSeedMatrices(t *testing.T) {
	s := strict()
	lenient := RuleSettings{}
	readOnlyOnly := RuleSettings{Strict: true, Allow: []Variant{VariantRead}}
	noDestructive := RuleSettings{Strict: true, Allow: []Variant{VariantRead, VariantWrite}}
	nothing := RuleSettings{Strict: true, Allow: []Variant{}}
	runRuleCases(t, []ruleCase{
		// Both hints true: the more restrictive (destructive) wins.
		{"both hints: read refused", annBoth, s, nested(VariantRead, "read"), VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"both hints: write refused", annBoth, s, Declaration{Variant: VariantWrite}, VerdictRefuse, fault.UserIntentServerMismatch, serverMismatch},
		{"both hints: destructive allowed", annBoth, s, Declaration{Variant: VariantDestructive}, VerdictAllow, "", ""},
		{"both hints: direct call is destructive", annBoth, s, Declaration{}, VerdictAllow, "", ""},
		// Non-strict: what strict refuses becomes a warning; what strict warns stays a warning.
		{"non-strict read on destructive warns", annDestructive, lenient, Declaration{Variant: VariantRead}, VerdictWarn, fault.UserIntentServerMismatch,
			serverMismatch + " (allowed because strict_server_validation is false)"},
		{"non-strict write on destructive warns", annDestructive, lenient, Declaration{Variant: VariantWrite}, VerdictWarn, fault.UserIntentServerMismatch,
			serverMismatch + " (allowed because strict_server_validation is false)"},
		{"non-strict write on read-only warns", annReadOnly, lenient, Declaration{Variant: VariantWrite}, VerdictWarn, fault.UserIntentOverlyCautious, readOnlyWarn},
		{"non-strict mismatch is still refused", annNone, lenient, nested(VariantRead, "write"), VerdictRefuse, fault.UserIntentMismatch,
			"Intent mismatch: tool is call_tool_read but intent declares write"},
		// A tool that says readOnlyHint=false is a writer: the read door does not let it through.
		{"read on explicit writer refused", annWriter, s, Declaration{Variant: VariantRead}, VerdictRefuse, fault.UserIntentServerMismatch,
			"Tool 'github:delete_repo' is marked not read-only by server, use call_tool_write"},
		{"non-strict read on explicit writer warns", annWriter, lenient, Declaration{Variant: VariantRead}, VerdictWarn, fault.UserIntentServerMismatch,
			"Tool 'github:delete_repo' is marked not read-only by server, use call_tool_write (allowed because strict_server_validation is false)"},
		{"write on explicit writer allowed", annWriter, s, Declaration{Variant: VariantWrite}, VerdictAllow, "", ""},
		{"title and openWorld only count as no hint", annTitleOnly, s, Declaration{Variant: VariantRead}, VerdictAllow, "", ""},
		// Direct calls: the variant is the tool's; declarations and require_declaration do not apply.
		{"direct read-only tool", annReadOnly, s, Declaration{}, VerdictAllow, "", ""},
		{"direct destructive tool", annDestructive, s, Declaration{}, VerdictAllow, "", ""},
		{"direct ignores require_declaration", annNone, RuleSettings{Strict: true, RequireDeclaration: true}, Declaration{}, VerdictAllow, "", ""},
		// allow
		{"allow [read]: read tool via read", annReadOnly, readOnlyOnly, Declaration{Variant: VariantRead}, VerdictAllow, "", ""},
		{"allow [read]: direct writer refused", annWriter, readOnlyOnly, Declaration{}, VerdictRefuse, fault.UserIntentNotAllowed,
			"Tool 'github:delete_repo' is not allowed in this step: it is a write tool (call_tool_write) and mcp_proxy.intent.allow lists read; pick another tool (retrieve_tools and tools/list show only the allowed ones)"},
		{"allow [read]: unannotated tool through the read door refused", annNone, readOnlyOnly, Declaration{Variant: VariantRead}, VerdictRefuse, fault.UserIntentNotAllowed,
			"Tool 'github:delete_repo' is not allowed in this step: it is a write tool (call_tool_write) and mcp_proxy.intent.allow lists read; pick another tool (retrieve_tools and tools/list show only the allowed ones)"},
		{"allow [read]: write door refused", annReadOnly, readOnlyOnly, Declaration{Variant: VariantWrite}, VerdictRefuse, fault.UserIntentNotAllowed,
			"call_tool_write is not allowed in this step: mcp_proxy.intent.allow lists read; use call_tool_read instead, or ask the workflow author to add write to mcp_proxy.intent.allow"},
		{"allow [read write]: destructive door refused", annDestructive, noDestructive, Declaration{Variant: VariantDestructive}, VerdictRefuse, fault.UserIntentNotAllowed,
			"call_tool_destructive is not allowed in this step: mcp_proxy.intent.allow lists read, write; use call_tool_read or call_tool_write instead, or ask the workflow author to add destructive to mcp_proxy.intent.allow"},
		{"allow [read write]: destructive tool refused before the annotation check", annDestructive, noDestructive, Declaration{Variant: VariantRead}, VerdictRefuse, fault.UserIntentNotAllowed,
			"Tool 'github:delete_repo' is not allowed in this step: it is a destructive tool (call_tool_destructive) and mcp_proxy.intent.allow lists read, write; pick another tool (retrieve_tools and tools/list show only the allowed ones)"},
		{"empty allow refuses everything", annReadOnly, nothing, Declaration{Variant: VariantRead}, VerdictRefuse, fault.UserIntentNotAllowed,
			"call_tool_read is not allowed in this step: mcp_proxy.intent.allow lists no variant, or ask the workflow author to add read to mcp_proxy.intent.allow"},
		{"not allowed wins over a mismatch", annReadOnly, readOnlyOnly, nested(VariantWrite, "read"), VerdictRefuse, fault.UserIntentNotAllowed,
			"call_tool_write is not allowed in this step: mcp_proxy.intent.allow lists read; use call_tool_read instead, or ask the workflow author to add write to mcp_proxy.intent.allow"},
		// declaration values (seed 001 validation rules and error table)
		{"unknown operation_type", annNone, s, nested(VariantRead, "unknown"), VerdictRefuse, fault.UserIntentInvalidOperationType,
			"Invalid intent.operation_type 'unknown': must be read, write, or destructive"},
		{"operation_type is case-sensitive", annNone, s, nested(VariantRead, "READ"), VerdictRefuse, fault.UserIntentInvalidOperationType,
			"Invalid intent.operation_type 'READ': must be read, write, or destructive"},
		{"matching operation_type without require_declaration", annDestructive, s, nested(VariantDestructive, "destructive"), VerdictAllow, "", ""},
		{"mismatch checked before the server annotation", annDestructive, s, nested(VariantRead, "write"), VerdictRefuse, fault.UserIntentMismatch,
			"Intent mismatch: tool is call_tool_read but intent declares write"},
		{"invalid sensitivity", annNone, s, Declaration{Variant: VariantWrite, DataSensitivity: "secret"}, VerdictRefuse, fault.UserIntentInvalidSensitivity,
			"Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown"},
		{"long bad sensitivity is clipped in the message", annNone, s, Declaration{Variant: VariantWrite, DataSensitivity: strings.Repeat("x", 500)}, VerdictRefuse, fault.UserIntentInvalidSensitivity,
			"Invalid intent.data_sensitivity '" + strings.Repeat("x", 64) + "…': must be public, internal, private, or unknown"},
		{"reason of 1000 characters accepted", annNone, s, Declaration{Variant: VariantWrite, Reason: strings.Repeat("é", 1000)}, VerdictAllow, "", ""},
		{"reason of 1001 characters refused", annNone, s, Declaration{Variant: VariantWrite, Reason: strings.Repeat("a", 1001)}, VerdictRefuse, fault.UserIntentReasonTooLong,
			"intent.reason exceeds maximum length of 1000 characters"},
		{"bad declaration refused even on the destructive door", annNone, s, Declaration{Variant: VariantDestructive, DataSensitivity: "top"}, VerdictRefuse, fault.UserIntentInvalidSensitivity,
			"Invalid intent.data_sensitivity 'top': must be public, internal, private, or unknown"},
		{"unknown variant", annNone, s, Declaration{Variant: "delete"}, VerdictRefuse, fault.UserIntentInvalidVariant,
			"unknown variant 'delete': must be read, write, or destructive"},
	})
	for _, sens := range Sensitivities {
		d := Decide(RuleInput{Tool: "t", Settings: s, Declared: Declaration{Variant: VariantWrite, DataSensitivity: sens}})
		if d.Verdict != VerdictAllow {
			t.Errorf("sensitivity %q refused: %+v", sens, d)
		}
	}
}

func TestAllowsAndAllowedSplitTools(t *testing.T) {
	tests := []struct {
		allow []Variant
		want  string
		read  bool
	}{
		{nil, "call_tool_read, call_tool_write, or call_tool_destructive", true},
		{[]Variant{VariantDestructive, VariantRead}, "call_tool_read or call_tool_destructive", true},
		{[]Variant{VariantWrite}, "call_tool_write", false},
		{[]Variant{}, "", false},
	}
	for _, tt := range tests {
		s := RuleSettings{Allow: tt.allow}
		if got := s.AllowedSplitTools(); got != tt.want {
			t.Errorf("AllowedSplitTools(%v) = %q, want %q", tt.allow, got, tt.want)
		}
		if s.Allows(VariantRead) != tt.read {
			t.Errorf("Allows(read) with %v = %v", tt.allow, !tt.read)
		}
		if s.Allows("bogus") {
			t.Errorf("Allows(bogus) with %v is true", tt.allow)
		}
	}
}

func TestSplitToolName(t *testing.T) {
	for v, want := range map[Variant]string{VariantRead: "call_tool_read", VariantWrite: "call_tool_write", VariantDestructive: "call_tool_destructive"} {
		if got := SplitToolName(v); got != want {
			t.Errorf("SplitToolName(%s) = %q", v, got)
		}
	}
}

func TestDecideAllowPathDoesNotAllocate(t *testing.T) {
	in := RuleInput{Tool: "Read", Annotations: annReadOnly, Settings: RuleSettings{Strict: true, Allow: Variants},
		Declared: Declaration{Variant: VariantRead, Nested: true, OperationType: "read", DataSensitivity: "internal", Reason: "look"}}
	if n := testing.AllocsPerRun(100, func() { _ = Decide(in) }); n != 0 {
		t.Errorf("Decide allocates %v times on the allow path", n)
	}
}

func BenchmarkDecide(b *testing.B) {
	cases := map[string]RuleInput{
		"allow": {Tool: "Read", Annotations: annReadOnly, Settings: RuleSettings{Strict: true},
			Declared: Declaration{Variant: VariantRead, Nested: true, OperationType: "read", DataSensitivity: "internal", Reason: "look at the file"}},
		"direct": {Tool: "Bash", Annotations: annDestructive, Settings: RuleSettings{Strict: true, Allow: Variants}},
		"warn":   {Tool: "Read", Annotations: annReadOnly, Settings: RuleSettings{Strict: true}, Declared: Declaration{Variant: VariantWrite}},
		"refuse": {Tool: "Bash", Annotations: annDestructive, Settings: RuleSettings{Strict: true}, Declared: Declaration{Variant: VariantRead}},
	}
	for name, in := range cases {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Decide(in)
			}
		})
	}
}
