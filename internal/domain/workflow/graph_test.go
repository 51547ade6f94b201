package workflow

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// ring is a workflow whose n command states go round in a cycle, with a terminal nothing reaches.
func ring(n int) *Workflow {
	w := &Workflow{Name: "ring", File: "r.yaml", Initial: "c0", States: map[string]*State{}}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("c%d", i)
		w.States[name] = &State{Name: name, Type: StateCommand, Spec: &CommandSpec{Command: "x"}, OnSuccess: fmt.Sprintf("c%d", (i+1)%n), Pos: p(i+3, 3)}
		w.Order = append(w.Order, name)
	}
	w.States["end"] = &State{Name: "end", Type: StateTerminal, Pos: p(n+3, 3)}
	w.Order = append(w.Order, "end")
	return w
}

func TestValidateCycles(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{7, "on_success goes c0 → c1 → c2 → c3 → c4 → c5 → c6 → c0"},
		{8, "on_success goes c0 → c1 → c2 → c3 → c4 → c5 → c6 → … → c0"},
	}
	for _, tt := range tests {
		ds := Validate(ring(tt.n))
		if len(ds) != tt.n+1 || ds[tt.n].Code != fault.UserWorkflowUnreachableState {
			t.Fatalf("ring(%d): %v", tt.n, ds)
		}
		if want := `no path from state "c0" reaches a terminal state: ` + tt.want; ds[0].Message != want || ds[0].Line != 3 {
			t.Errorf("ring(%d): %q at line %d\nwant %q", tt.n, ds[0].Message, ds[0].Line, want)
		}
	}
}

func TestValidateNoTerminal(t *testing.T) {
	w := build()
	delete(w.States, "done")
	delete(w.States, "failed")
	w.Order = w.Order[:2]
	w.States["build"].OnFailure = ""
	w.States["ask"].OnSuccess = "build"
	w.Pos = map[string]fault.Position{"states": p(3, 1)}
	ds := Validate(w)
	if len(ds) != 1 || ds[0].Code != fault.UserWorkflowNoTerminal || ds[0].Line != 3 || !strings.Contains(ds[0].Hint, "add a terminal state") {
		t.Fatalf("%v", ds)
	}
}

func TestUnreachableWaitsForBrokenTransitions(t *testing.T) {
	w := build()
	w.States["build"].OnFailure = "nowhere" // reached, and broken: the rest of the picture is unknown
	w.States["extra"] = &State{Name: "extra", Type: StateTerminal}
	ds := Validate(w)
	if got := codes(ds); !reflect.DeepEqual(got, []string{fault.UserWorkflowUnknownTarget}) {
		t.Fatalf("codes = %v", got)
	}
	w.States["build"].OnFailure = "failed"
	if got := codes(Validate(w)); !reflect.DeepEqual(got, []string{fault.UserWorkflowUnreachableState}) {
		t.Fatalf("codes = %v", got)
	}
}

func TestTemplateErrorText(t *testing.T) {
	if got := (&TemplateError{Line: 1, Msg: "m"}).Error(); got != "m" {
		t.Errorf("line 1: %q", got)
	}
	if got := (&TemplateError{Line: 2, Msg: "m"}).Error(); got != "line 2 of the template: m" {
		t.Errorf("line 2: %q", got)
	}
	var te *TemplateError
	if err := toTemplateError(errors.New("odd")); !errors.As(err, &te) || te.Line != 1 || te.Msg != "odd" {
		t.Errorf("an error of unknown shape: %#v", err)
	}
	if err := toTemplateError(errors.New("template: awf:12: bad thing")); !errors.As(err, &te) || te.Line != 12 || te.Msg != "bad thing" {
		t.Errorf("a parse error: %#v", err)
	}
}

func TestTemplateRefsOddShapes(t *testing.T) {
	for _, text := range []string{"{{$}}", "{{$x := 1}}{{$x}}", "{{.}}"} {
		if refs, err := TemplateRefs(text); err != nil || len(refs) != 0 {
			t.Errorf("TemplateRefs(%q) = %v, %v", text, refs, err)
		}
	}
}

func TestIdentifier(t *testing.T) {
	for in, want := range map[string]string{"2x-y": "_2x_y", "a b": "a_b", "Az_09": "Az_09", "é": "_", "x9": "x9", "@": "_", "[": "_", "`": "_", "{": "_", "x/": "x_", "x:": "x_", "0": "_0", "9": "_9"} {
		if got := identifier(in); got != want {
			t.Errorf("identifier(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAllows(t *testing.T) {
	s := IntentSettings{Allow: []tool.Variant{tool.VariantRead}}
	if !s.Allows(tool.VariantRead) || s.Allows(tool.VariantWrite) {
		t.Error("Allows")
	}
	d := DefaultIntent()
	d.Allow[0] = "changed"
	if DefaultIntent().Allow[0] == "changed" {
		t.Error("DefaultIntent shares its list")
	}
}

func TestPositionFallbacks(t *testing.T) {
	m := &MCPProxy{Pos: p(3, 3), KeyPos: map[string]fault.Position{"enable": p(4, 5)}, ValuePos: map[string]fault.Position{"enable": p(4, 13)}}
	if m.KeyAt("enable") != p(4, 5) || m.ValueAt("enable") != p(4, 13) || m.KeyAt("intent") != p(3, 3) || m.ValueAt("intent") != p(3, 3) {
		t.Error("MCPProxy positions")
	}
	s := &State{Pos: p(9, 3), KeyPos: map[string]fault.Position{"dir": p(10, 5)}}
	if s.ValueAt("dir") != p(10, 5) || s.ValueAt("x") != p(9, 3) {
		t.Error("State positions")
	}
}
