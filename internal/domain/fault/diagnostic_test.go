package fault

import (
	"errors"
	"strings"
	"testing"
)

func TestPosition(t *testing.T) {
	tests := []struct {
		pos    Position
		valid  bool
		render string
	}{
		{Position{}, false, ""},
		{Position{File: "w.yaml"}, true, "w.yaml"},
		{Position{Line: 1}, true, ":1:0"},
		{Position{Line: -1}, false, ""},
		{Position{File: "w.yaml", Line: 3, Column: 7}, true, "w.yaml:3:7"},
		{Position{File: "w.yaml", Line: 0, Column: 7}, true, "w.yaml"},
	}
	for _, tt := range tests {
		if got := tt.pos.Valid(); got != tt.valid {
			t.Errorf("%+v.Valid() = %v, want %v", tt.pos, got, tt.valid)
		}
		if got := tt.pos.String(); got != tt.render {
			t.Errorf("%+v.String() = %q, want %q", tt.pos, got, tt.render)
		}
	}
}

func TestDiagnosticsSortOrdersFileLineColumn(t *testing.T) {
	ds := Diagnostics{
		{Code: "b2", Position: Position{File: "b", Line: 2, Column: 1}},
		{Code: "a3", Position: Position{File: "a", Line: 3, Column: 1}},
		{Code: "a1c5", Position: Position{File: "a", Line: 1, Column: 5}},
		{Code: "a1c2", Position: Position{File: "a", Line: 1, Column: 2}},
		{Code: "a1c2bis", Position: Position{File: "a", Line: 1, Column: 2}},
		{Code: "b1", Position: Position{File: "b", Line: 1, Column: 9}},
	}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, d.Code)
	}
	// Equal positions keep their order (stable).
	if want := "a1c2 a1c2bis a1c5 a3 b1 b2"; strings.Join(got, " ") != want {
		t.Fatalf("sorted = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestInvalidErrorListsEveryError(t *testing.T) {
	var ds Diagnostics
	ds.Warnf(Position{}, "W.ONE", "", "just a warning")
	ds.Errorf(Position{File: "w.yaml", Line: 2, Column: 3}, "E.ONE", "fix it", "first %s", "problem")
	ds.Errorf(Position{}, "E.TWO", "", "second")
	err := ds.AsError("demo")
	var inv *InvalidError
	if !errors.As(err, &inv) || CodeOf(err) != UserWorkflowInvalid {
		t.Fatalf("AsError = %v, want an %s wrapping *InvalidError", err, UserWorkflowInvalid)
	}
	want := "workflow \"demo\" is invalid: 2 error(s)\n" +
		"w.yaml:2:3: error: first problem [E.ONE]\n    hint: fix it\n" +
		"error: second [E.TWO]"
	if got := inv.Error(); got != want {
		t.Fatalf("InvalidError =\n%s\nwant\n%s", got, want)
	}
	if len(inv.Diagnostics) != 3 {
		t.Errorf("the wrapped diagnostics lost the warning: %d", len(inv.Diagnostics))
	}
}
