package activity

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestFilterMatch(t *testing.T) {
	r := Record{RunID: "r1", Tool: "Bash", Outcome: OutcomeRefused, Intent: tool.Intent{Variant: tool.VariantDestructive}}
	tests := []struct {
		name   string
		filter Filter
		want   bool
	}{
		{"empty filter matches everything", Filter{}, true},
		{"same run", Filter{RunID: "r1"}, true},
		{"other run", Filter{RunID: "r2"}, false},
		{"same tool", Filter{Tool: "Bash"}, true},
		{"other tool", Filter{Tool: "Read"}, false},
		{"same outcome", Filter{Outcome: OutcomeRefused}, true},
		{"other outcome", Filter{Outcome: OutcomeSuccess}, false},
		{"same intent type", Filter{IntentType: tool.VariantDestructive}, true},
		{"other intent type", Filter{IntentType: tool.VariantRead}, false},
		{"all fields match", Filter{RunID: "r1", Tool: "Bash", Outcome: OutcomeRefused, IntentType: tool.VariantDestructive}, true},
		{"one field of four differs", Filter{RunID: "r1", Tool: "Bash", Outcome: OutcomeRefused, IntentType: tool.VariantWrite}, false},
		{"first field differs", Filter{RunID: "r9", Tool: "Bash", Outcome: OutcomeRefused, IntentType: tool.VariantDestructive}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.Match(r); got != tt.want {
				t.Fatalf("%+v.Match = %v, want %v", tt.filter, got, tt.want)
			}
		})
	}
	if !(Filter{Kind: KindCall}).Match(r) || (Filter{Kind: KindNetwork}).Match(r) {
		t.Error("a tool call's record is not of kind call")
	}
	netRec := Record{RunID: "r1", Tool: "Bash", Kind: KindNetwork, Network: &Connection{Host: "h"}}
	if !(Filter{Kind: KindNetwork, RunID: "r1"}).Match(netRec) || (Filter{Kind: KindCall}).Match(netRec) {
		t.Error("a network record is not of kind network")
	}
	// A record with empty fields matches only filters that leave those fields empty.
	if (Filter{RunID: "r1"}).Match(Record{}) {
		t.Error("a run filter matched a record without a run")
	}
}

// A call declared read on a destructive tool is filed as destructive (the probe:
// `awf call tool-read Bash --strict=false`); an old record without tool_variant keeps its
// declared variant.
func TestEffectiveVariant(t *testing.T) {
	R, W, D := tool.VariantRead, tool.VariantWrite, tool.VariantDestructive
	for _, c := range []struct {
		declared, own, want tool.Variant
	}{
		{R, D, D}, {D, R, D}, {R, W, W}, {W, R, W}, {R, R, R}, {R, "", R}, {"", W, W}, {"", "", ""}, {"bogus", R, R}, {W, "bogus", W}, {"bogus", "", "bogus"},
	} {
		r := Record{Intent: tool.Intent{Variant: c.declared}, ToolVariant: c.own}
		if got := r.Effective(); got != c.want {
			t.Errorf("declared %q, tool %q: effective %q, want %q", c.declared, c.own, got, c.want)
		}
		for _, v := range tool.Variants {
			if got := (Filter{IntentType: v}).Match(r); got != (v == c.want) {
				t.Errorf("declared %q, tool %q: --intent-type %s matches = %v", c.declared, c.own, v, got)
			}
		}
	}
}
